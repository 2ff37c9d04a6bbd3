// The Gemini generateContent format of the mock model (mock-llm.ts): its rules and its answers, whole or streamed.
import { type Format, invalid, isObject, type Json, list, turn2id, words } from './mock-llm-format.ts'

export const gemini: Format = {
  format: 'gemini',
  idPrefix: 'fc_',
  model: (_, path) => /\/models\/([^/:]+):/.exec(path)![1]!,
  stream: (_, url) => url.pathname.endsWith(':streamGenerateContent'),

  validate(body) {
    const contents = list(body.contents)
    if (contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified'
    let calls = 0
    contents.forEach((content, i) => {
      if (!isObject(content)) return invalid(`contents[${i}] must be an object`)
      const parts = list(content.parts)
      if (parts.length === 0) invalid(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`)
      if (content.role !== undefined && !['user', 'model', 'function'].includes(content.role as string)) invalid(`Please use a valid role: user, model, function. (contents[${i}])`)
      const responses = parts.filter((p) => isObject(p) && isObject(p.functionResponse)).length
      if (calls > 0) {
        if (responses !== calls) invalid('Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.')
        if (responses !== parts.length) invalid(`contents[${i}]: a function response turn must hold only functionResponse parts`)
      } else if (responses > 0) {
        invalid('Please ensure that function response turn comes immediately after a function call turn.')
      }
      calls = content.role === 'model' ? parts.filter((p) => isObject(p) && isObject(p.functionCall)).length : 0
    })
    return calls > 0 ? 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.' : undefined
  },

  stepsTaken: (body) => list(body.contents).filter((c) => isObject(c) && c.role === 'model' && list(c.parts).some((p) => isObject(p) && isObject(p.functionCall))).length,

  respond(turn, model, stream) {
    const chunk = (parts: Json[], finishReason?: string) => ({
      candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: model,
      responseId: `r_${turn2id(turn)}`,
    })
    const parts: Json[] = 'calls' in turn ? turn.calls.map((c) => ({ functionCall: { name: c.name, args: c.args } })) : [{ text: turn.text }]
    if (!stream) return { json: chunk(parts, 'STOP') }
    if ('calls' in turn) return { events: [{ data: chunk(parts, 'STOP') }] }
    const pieces = words(turn.text)
    return { events: pieces.map((text, n) => ({ data: chunk([{ text }], n === pieces.length - 1 ? 'STOP' : undefined) })) }
  },
}
