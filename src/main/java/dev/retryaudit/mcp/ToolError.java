package dev.retryaudit.mcp;

/** A tool call that cannot be done: its message goes back to the client as an MCP tool error, and the server goes on. */
final class ToolError extends Exception {
    private static final long serialVersionUID = 1L;

    ToolError(String message) {
        super(message, null, false, false);
    }
}
