/**
 * WebMCP's imperative tools: what a page lets a browser's agent do besides
 * filling its forms. They are registered only where the browser offers
 * `document.modelContext`; nothing is shipped to stand in for it elsewhere.
 */

/** A tool as `document.modelContext.registerTool` takes it: its input described by a JSON Schema. */
export interface PageTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  execute(input: Record<string, unknown>): Promise<unknown>;
}

interface ModelContext {
  registerTool(tool: PageTool): Promise<void>;
}

/** Registers `tools` with the browser's agent, if the browser has one; a tool it refuses is left out, the others kept. */
export function registerPageTools(tools: readonly PageTool[]): void {
  const context = (document as Document & { modelContext?: ModelContext }).modelContext;
  if (!context) return;
  for (const tool of tools) {
    context.registerTool(tool).catch((error: unknown) => {
      console.warn(`WebMCP: the tool ${tool.name} was not registered`, error);
    });
  }
}

/** A vote's direction, as a tool's input schema and the API take it. */
export const VOTE_VALUE = { type: 'integer', enum: [1, -1], description: '1 up, -1 down. The same direction again removes the vote.' };
