// Validation of `repeatedText` (docs/detectors.md, "Repeated answers"): top level only, `after` an
// integer >= 2, each bad value naming its key, a rejected configure keeping the config in force.
// The page API's guard sees no answers, so the key changes nothing there but the events' names.
import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, DEFAULT_CONFIG, DETECTORS_OFF, GuardConfigError, resolveConfig, type GuardEvent } from '../../../engine/index.ts'
import { rejection } from './support/rejection.ts'

describe('repeatedText config', () => {
  it('is kept frozen while on, left out while off, and turned off by DETECTORS_OFF', () => {
    const config = resolveConfig({ repeatedText: { after: 2 } })
    expect(config).toEqual({ ...DEFAULT_CONFIG, repeatedText: { after: 2 } })
    expect(Object.isFrozen(config.repeatedText)).toBe(true)
    expect(resolveConfig({ repeatedText: null })).toEqual(DEFAULT_CONFIG)
    expect(createRepeatToolGuard({ repeatedText: { after: 3 } }).configure({ ...DETECTORS_OFF })).toEqual(DEFAULT_CONFIG)
  })

  it.each([
    [{ repeatedText: 3 }, 'repeatedText', 'repeatedText must be null or an object { after }, got 3'],
    [{ repeatedText: {} }, 'repeatedText.after', 'repeatedText.after must be an integer >= 2, got undefined'],
    [{ repeatedText: { after: 1 } }, 'repeatedText.after', 'repeatedText.after must be an integer >= 2, got 1'],
    [{ repeatedText: { after: 2.5 } }, 'repeatedText.after', 'repeatedText.after must be an integer >= 2, got 2.5'],
    [{ repeatedText: { after: '3' } }, 'repeatedText.after', 'repeatedText.after must be an integer >= 2, got "3"'],
    [{ repeatedText: { after: 3, afer: 3 } }, 'repeatedText.afer', 'repeatedText.afer is not a repeatedText key (did you mean after?), got 3'],
    [
      { tools: [{ match: 'x', repeatedText: { after: 2 } }] },
      'tools[0].repeatedText',
      'tools[0].repeatedText is not a tools entry key (known keys: match, thresholds, countBy, resultAware, stopAfter, ignoreArgumentKeys, errorRuns, similar), got {"after":2}',
    ],
  ])('rejects %j, naming the key', (input, key, message) => {
    expect(rejection(input)).toEqual([key, message])
  })

  it('keeps the config in force when a configure is rejected', () => {
    const guard = createRepeatToolGuard({ repeatedText: { after: 2 } })
    const before = guard.config
    expect(() => guard.configure({ thresholds: [4], repeatedText: { after: 0 } })).toThrow(GuardConfigError)
    expect(guard.config).toBe(before)
  })

  it('changes nothing the page API decides: the same reminders, now naming their detector', () => {
    const remindersUnder = (input: object) => {
      const guard = createRepeatToolGuard(input)
      const events: GuardEvent[] = []
      guard.subscribe((event) => events.push(event))
      const agent = { name: 'agent' }
      const texts = Array.from({ length: 5 }, () => guard.observe({ agent, name: 'read_file', arguments: { path: 'a.ts' } })?.content[0].text)
      return { texts, reminders: events.flatMap((e) => (e.type === 'reminder' ? [[e.level, e.count, e.detector]] : [])) }
    }
    const plain = remindersUnder({})
    const withRepeatedText = remindersUnder({ repeatedText: { after: 2 } })
    expect(withRepeatedText.texts).toEqual(plain.texts)
    expect(plain.reminders).toEqual([
      ['gentle', 3, undefined],
      ['detailed', 5, undefined],
    ])
    expect(withRepeatedText.reminders).toEqual([
      ['gentle', 3, 'repeat'],
      ['detailed', 5, 'repeat'],
    ])
  })
})
