// What the test worker plays and the page and the test agree on.

/** A model WebLLM allows tools for (its `functionCallingModelIds`); any other is refused tools. */
export const MODEL = 'Hermes-3-Llama-3.1-8B-q4f16_1-MLC'
/** The channel the workers report on: `{ worker: self.name, data }` for every message received. */
export const RECEIVED_CHANNEL = 'webllm-received'
/** How many times the model calls the tool before it answers. */
export const LOOPS = 6
export const ANSWER = 'The loader ignores "threshold".'
export const CALL = { name: 'read_file', arguments: '{"path":"notes.txt"}' } as const
