package dev.retryaudit.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** The tool's version: the jar manifest's Implementation-Version, else the build's version resource (when run from classes). */
public final class VersionInfo implements CommandLine.IVersionProvider {
    public static final String NAME = "retry-audit";

    public static String version() {
        String v = VersionInfo.class.getPackage().getImplementationVersion();
        if (v != null) {
            return v;
        }
        try (InputStream in = VersionInfo.class.getResourceAsStream("/dev/retryaudit/version.txt")) {
            return in == null ? "unknown" : new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {NAME + " " + version()};
    }
}
