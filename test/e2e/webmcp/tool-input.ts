// How a page hands `executeTool` a tool's input arguments, as the Chromium it runs in takes them:
// an object from Chromium 156 on, JSON text (which the browser parses for the tool's execute)
// before. One script for every page that calls `executeTool`, the tests' and the benchmark's.

/** Defines `window.toolInput(args)`: `args` in the form this browser's `executeTool` takes. */
export const TOOL_INPUT_SCRIPT = `<script>
  const chromiumMajor = Number(/Chrome\\/(\\d+)/.exec(navigator.userAgent)?.[1] ?? 0)
  window.toolInput = (args) => (chromiumMajor >= 156 ? args : JSON.stringify(args))
</script>`

/** The page's `window`, with the script above run in it. */
export type ToolInputWindow = { readonly toolInput: (args: object) => unknown }
