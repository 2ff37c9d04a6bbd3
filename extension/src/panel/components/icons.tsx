// Toolbar glyphs drawn like DevTools' own: 16px, one colour (currentColor) unless stated.

export function RecordIcon({ recording }: { recording: boolean }) {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
      <circle cx="8" cy="8" r="5" class={recording ? 'rtg-record-on' : 'rtg-record-off'} />
    </svg>
  )
}

export function ClearIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.5">
      <circle cx="8" cy="8" r="5.5" />
      <path d="M4.2 11.8l7.6-7.6" />
    </svg>
  )
}

export function DownloadIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.5">
      <path d="M8 2.5v8M4.5 7l3.5 3.5L11.5 7M3 13.5h10" />
    </svg>
  )
}

export function UploadIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.5">
      <path d="M8 11V3M4.5 6.5L8 3l3.5 3.5M3 13.5h10" />
    </svg>
  )
}
