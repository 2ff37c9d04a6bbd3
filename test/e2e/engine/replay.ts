// What an agent author's first script does with the engine, as the body of an async function that
// has `engine` (the module) in scope, and what it must return.
// Five identical calls, then the same tool with other arguments: what the model would be handed.
export const REPLAY = `
  const { createRepeatToolGuard, RECOMMENDED_CONFIG, GuardConfigError, canonicalArguments } = engine
  const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
  const agent = { name: 'author' }
  const out = []
  for (let i = 0; i < 6; i++) {
    const d = await guard.postExecute({ agent, name: 'grep', arguments: i < 5 ? { b: 1, a: 2 } : { a: 3 } }, {})
    out.push((d.additionalContexts ?? []).map((m) => m.content[0].text.split('\\n')[0]))
  }
  let error = ''
  try { createRepeatToolGuard({ threshold: [3] }) } catch (e) { error = (e instanceof GuardConfigError) + ' ' + e.key }
  return { out, error, canonical: canonicalArguments('{"b":1,"a":[2,1]}'), snapshot: guard.snapshot() }
`
export const EXPECTED = {
  out: [
    [],
    [],
    [
      'You are repeating the exact same tool call with identical arguments. Carefully analyze the previous result before calling again: if the task is not complete, try a different approach or different arguments instead of repeating the call.',
    ],
    [],
    ['Repeated tool call detected:'],
    [],
  ],
  error: 'true threshold',
  canonical: '{"a":[2,1],"b":1}',
  snapshot: [{ id: 1, label: 'author', tool: 'grep', canonicalArguments: '{"a":3}', count: 1, nextThreshold: 3 }],
}
