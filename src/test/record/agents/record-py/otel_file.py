"""The recorders' tracer provider: the SDK's OTLP JSON file exporter, one export at shutdown."""

from opentelemetry import trace
from opentelemetry.exporter.otlp.json.file import FileSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor


def install(service_name: str, export_file: str) -> TracerProvider:
    """Registers a global tracer provider that writes OTLP JSON lines to export_file when shut down."""
    provider = TracerProvider(resource=Resource.create({"service.name": service_name}))
    provider.add_span_processor(
        BatchSpanProcessor(FileSpanExporter(path=export_file), schedule_delay_millis=600000)
    )
    trace.set_tracer_provider(provider)
    return provider
