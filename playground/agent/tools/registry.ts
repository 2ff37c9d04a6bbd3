// The tool sets agents get, and the one place a call is turned into an outcome.
import { ciStatus } from './ci-status.ts'
import { fetchUrl } from './fetch-url.ts'
import { deletePath, listDir, readFile, writeFile } from './files.ts'
import { grep } from './grep.ts'
import { runTests } from './run-tests.ts'
import { spawnSubagent, waitSubagent } from './subagents.ts'
import { todoWrite } from './todo-write.ts'
import type { Tool, ToolContext, ToolOutcome } from './tool.ts'
import { errorText } from '../../../engine/safe-reading.ts'

export const PROJECT_TOOLS: readonly Tool[] = [readFile, listDir, grep, writeFile, todoWrite, runTests, deletePath, fetchUrl, ciStatus]
export const LEAD_TOOLS: readonly Tool[] = [...PROJECT_TOOLS, spawnSubagent, waitSubagent]

/**
 * Runs one call with its parsed arguments. An unknown tool, arguments that are not an object or a
 * bad argument become an error result for the model to read, never an exception for the loop.
 */
export async function runTool(tools: readonly Tool[], name: string, args: unknown, context: ToolContext): Promise<ToolOutcome> {
  const tool = tools.find((t) => t.name === name)
  if (!tool) return { content: `Error: unknown tool "${name}" (available: ${tools.map((t) => t.name).join(', ')})`, isError: true }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { content: `Error: ${name} expects a JSON object of arguments`, isError: true }
  try {
    return await tool.run(args as Record<string, unknown>, context)
  } catch (error) {
    return { content: `Error: ${errorText(error)}`, isError: true }
  }
}
