/**
 * retry-audit as a library and a command-line tool. The API is {@code dev.retryaudit.api} (the library face) and
 * {@code dev.retryaudit.api.split} (the split protocol, for an engine that audits an input in parts); the other
 * exported packages are those whose types its signatures name: the model values (with the input and
 * report formats, the limits and the policy) and the rule API for rules of a caller's own. Every other
 * package, the report writers' among them, is internal and not exported. The command line
 * is also a {@link java.util.spi.ToolProvider} named {@code retry-audit}.
 */
module dev.retryaudit {
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.annotation;
    requires com.fasterxml.jackson.databind;
    requires info.picocli;
    requires io.modelcontextprotocol.sdk.mcp.core;
    requires io.modelcontextprotocol.sdk.mcp.json.jackson2;
    // The MCP SDK is two automatic modules that name nothing they need: the named modules it uses are required
    // here so that they resolve on the module path (it logs through SLF4J and checks tool arguments against
    // their JSON Schemas).
    requires com.networknt.schema;
    requires org.slf4j;
    // aircompressor decodes zstd inputs: an automatic module named after its jar; it reads memory through
    // sun.misc.Unsafe, whose module nothing else would resolve on the module path.
    requires aircompressor;
    requires jdk.unsupported;
    // OTLP in protobuf: the published definitions and their runtime, both automatic modules named in their
    // manifests; serve listens with Jetty.
    requires io.opentelemetry.proto;
    requires com.google.protobuf;
    requires org.eclipse.jetty.server;
    requires org.eclipse.jetty.http;
    requires org.eclipse.jetty.io;
    requires org.eclipse.jetty.util;
    // audit --from asks trace stores over HTTP.
    requires java.net.http;

    exports dev.retryaudit.api;
    exports dev.retryaudit.api.split;
    exports dev.retryaudit.model;
    exports dev.retryaudit.rules;

    // picocli reads the commands' annotated fields; Jackson writes the SARIF log's records.
    opens dev.retryaudit.cli to info.picocli;
    opens dev.retryaudit.report.sarif to com.fasterxml.jackson.databind;

    provides java.util.spi.ToolProvider with dev.retryaudit.cli.RetryAuditToolProvider;
    // The probe's verdicts, a family of rules the engine lists but no audit runs.
    uses dev.retryaudit.rules.engine.ListedFamily;
    provides dev.retryaudit.rules.engine.ListedFamily with dev.retryaudit.probe.ProbeCatalogue;
}
