"""The MCP server: a front end that serves memory to agents over stdio (docs/architecture.md)."""
