// Fetches a web page for the agent. The playground's agent has no network (its project lives in
// memory), so every fetch fails the way an offline one does: a tool that fails whatever its
// arguments, which the flaky-tool scenario keeps calling (docs/playground.md, "Scenarios").
import { requireString, ToolInputError, type Tool } from './tool.ts'

export const fetchUrl: Tool = {
  name: 'fetch_url',
  description: 'Fetch an http(s) URL (a web page or a JSON API) and return the response body as text.',
  parameters: {
    type: 'object',
    properties: { url: { type: 'string', description: 'An http:// or https:// URL' } },
    required: ['url'],
    additionalProperties: false,
  },
  run(args) {
    const text = requireString(args, 'url')
    let url: URL
    try {
      url = new URL(text)
    } catch {
      throw new ToolInputError(`"url" is not a URL: ${text}`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ToolInputError(`"url" must be http:// or https://, not ${url.protocol}`)
    return { content: `Error: request to ${url.href} failed, reason: getaddrinfo EAI_AGAIN ${url.hostname}`, isError: true }
  },
}
