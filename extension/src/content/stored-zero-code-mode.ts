// Zero-code mode's setting for this frame's origin: read from extension storage at start and on
// every change, checked entry by entry, and posted to the page. Only the panel writes it.
import { modeFor, readZeroCodeSettings, ZERO_CODE_STORAGE_KEY, type ZeroCodeMode } from '../protocol/zero-code-mode.ts'

type StorageArea = { get(key: string): Promise<Record<string, unknown>> }
type StorageChanges = Record<string, { newValue?: unknown }>

interface ZeroCodeDeliveryOptions {
  readonly storage: {
    readonly local: StorageArea
    readonly onChanged: { addListener(listener: (changes: StorageChanges, area: string) => void): void }
  }
  /** The frame's own origin (an iframe has its own); undefined when opaque. */
  readonly origin: string | undefined
  /** Sends the setting to the page. */
  readonly post: (mode: ZeroCodeMode) => void
  /** Stored entries refused, each with its reason; they are ignored, the others apply. */
  readonly rejected: (reasons: readonly string[]) => void
}

interface ZeroCodeDelivery {
  /** The page script listens now: the setting it may have missed goes again. */
  resend(): void
}

export function startZeroCodeDelivery({ storage, origin, post, rejected }: ZeroCodeDeliveryOptions): ZeroCodeDelivery {
  let known: ZeroCodeMode | undefined

  function apply(value: unknown): void {
    const read = readZeroCodeSettings(value)
    if (read.rejected.length > 0) rejected(read.rejected)
    known = modeFor(read.settings, origin)
    post(known)
  }

  storage.local.get(ZERO_CODE_STORAGE_KEY).then(
    (items) => apply(items[ZERO_CODE_STORAGE_KEY]),
    () => {
      // Storage unavailable (the extension context is gone): the page keeps its origin's default.
    },
  )
  storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && Object.hasOwn(changes, ZERO_CODE_STORAGE_KEY)) apply(changes[ZERO_CODE_STORAGE_KEY]!.newValue)
  })
  return {
    resend() {
      if (known !== undefined) post(known)
    },
  }
}
