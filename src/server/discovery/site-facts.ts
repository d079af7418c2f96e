/** What every discovery document says about the site itself. */
export interface SiteFacts {
  /** The site's origin, the base of every absolute URL. */
  site: string;
  name: string;
  /** One sentence: what the site is. */
  summary: string;
  /** The names of the MCP server's tools (src/server/mcp/tools.ts), which the documents name. */
  mcpTools: readonly string[];
}

/** An article as the indexes list it: absolute page URL; its Markdown twin is that URL with `.md`. */
export interface IndexedArticle {
  title: string;
  url: string;
  excerpt: string;
}
