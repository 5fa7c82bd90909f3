package dev.retryaudit.cli;

import dev.retryaudit.api.RetryAudit;
import picocli.CommandLine;

/** The tool's version: the jar manifest's Implementation-Version, else the build's version resource (when run from classes). */
public final class VersionInfo implements CommandLine.IVersionProvider {
    public static final String NAME = RetryAudit.NAME;

    public static String version() {
        return RetryAudit.version();
    }

    @Override
    public String[] getVersion() {
        return new String[] {NAME + " " + version()};
    }
}
