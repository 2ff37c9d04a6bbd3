// Says which guard the agent runs with, so nobody wonders where a reminder came from.
import type { GuardChoice } from './guard-choice.ts'
import { extensionVersion } from './guard-choice.ts'

export function GuardStatus({ choice, on }: { choice: GuardChoice; on: boolean }) {
  const via = on ? choice.via : 'off'
  const text =
    choice.via === 'extension'
      ? on
        ? `Guarded by the Repeat Tool Guard extension (window.__REPEAT_TOOL_GUARD__${extensionVersion(choice.guard) ? `, protocol ${extensionVersion(choice.guard)}` : ''}). Open DevTools → Repeat Tool Guard to inspect it.`
        : "Guard off: the agent does not call window.__REPEAT_TOOL_GUARD__. The extension's zero-code mode still sees this page's model requests and may insert reminders on the wire."
      : on
        ? "Extension not detected: guarded by the playground's own engine, shown in the inspector on this page."
        : 'Guard off: no reminders. The model sees only its own calls and their results.'
  return (
    <p class={`guard-status guard-${via}`} data-testid="guard-status" data-via={via}>
      {text}
    </p>
  )
}
