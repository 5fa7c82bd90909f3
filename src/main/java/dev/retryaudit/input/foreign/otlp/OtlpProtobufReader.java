package dev.retryaudit.input.foreign.otlp;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.input.reader.TraceReader;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads the OTLP trace files a collector's file exporter writes with {@code format: proto}: each
 * {@code ExportTraceServiceRequest} (or {@code TracesData}) preceded by its length in 4 bytes,
 * unsigned big-endian. Each message is one record of {@link OtlpRecords}, its spans read from the wire
 * with the checks of OTLP/JSON, so they are linked as those of the JSON Lines the exporter writes with
 * {@code format: json}; errors and notes stand at line N, column 1, for the Nth message. A message the
 * exporter compressed on its own ({@code compression: zstd}) is refused with what to do instead.
 */
public final class OtlpProtobufReader implements TraceReader {
    private static final byte[] ZSTD_MAGIC = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD};

    @Override
    public void read(ReadContext ctx) throws IOException, InputException {
        InputStream[] raw = new InputStream[1];
        // Frames are not JSON: the filter hands over the stream itself and the parser gets nothing.
        ctx.open(in -> {
            raw[0] = in;
            return InputStream.nullInputStream();
        });
        InputStream in = raw[0];
        OtlpRecords records = new OtlpRecords(ctx.source(), ctx.sourceIndex(), ctx.limits());
        RetryLinker linker = new RetryLinker();
        long frame = 0;
        byte[] header = new byte[OtlpProtobuf.FRAME_HEADER];
        int n;
        while ((n = in.readNBytes(header, 0, header.length)) > 0) {
            frame++;
            if (n < header.length) {
                throw rejected(ctx, frame, "the input ends within the length of message " + frame + " (" + n
                        + " of its 4 bytes)");
            }
            long length = OtlpProtobuf.frameLength(header, 0);
            if (length > Integer.MAX_VALUE) {
                throw rejected(ctx, frame, "message " + frame + " is said to be " + length
                        + " bytes long; a protobuf message has at most 2 GiB");
            }
            byte[] message = in.readNBytes((int) length);
            if (message.length < length) {
                throw rejected(ctx, frame, "the input ends within message " + frame + ": " + message.length
                        + " of its " + length + " bytes");
            }
            if (message.length >= ZSTD_MAGIC.length && Arrays.equals(message, 0, ZSTD_MAGIC.length, ZSTD_MAGIC, 0,
                    ZSTD_MAGIC.length)) {
                throw rejected(ctx, frame, "message " + frame + " is zstd-compressed on its own (the file exporter's "
                        + "compression: zstd), which this reader does not decode; export without compression, or "
                        + "with format: json");
            }
            OtlpProtobuf.Decoded export;
            try {
                export = OtlpProtobuf.decode(message, ctx.limits().depth());
            } catch (InvalidProtocolBufferException e) {
                throw rejected(ctx, frame, OtlpProtobuf.why(e) + " (message " + frame + ", " + length + " bytes)");
            }
            records.read(OtlpRecords.Record.protobuf(frame, export), linker, ctx);
        }
        if (frame == 0) {
            throw InputException.rejected(ctx.source(), 1, 1, "$", "empty input: expected an OTLP trace export");
        }
        linker.emit(ctx, false);
    }

    private static InputException rejected(ReadContext ctx, long frame, String detail) {
        return InputException.rejected(ctx.source(), frame, 1, "$", detail);
    }
}
