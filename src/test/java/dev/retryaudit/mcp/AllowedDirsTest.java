package dev.retryaudit.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Only regular files under the allowed directories are readable, whatever the path or its links say. */
class AllowedDirsTest {
    @TempDir
    Path tmp;

    @Test
    void readsFilesUnderTheDirectoriesOnly() throws IOException, ToolError {
        Path allowed = Files.createDirectories(tmp.resolve("allowed/sub")).getParent().toRealPath();
        Path inside = Files.writeString(allowed.resolve("sub/t.json"), "{}");
        Path secret = Files.writeString(tmp.resolve("secret.json"), "{}");
        Files.createSymbolicLink(allowed.resolve("link.json"), secret);
        Files.createSymbolicLink(allowed.resolve("dirlink"), tmp);
        AllowedDirs dirs = new AllowedDirs(List.of(allowed));

        assertThat(dirs.resolve("sub/t.json")).isEqualTo(inside.toRealPath());
        assertThat(dirs.resolve(inside.toString())).isEqualTo(inside.toRealPath());
        for (String escape : List.of("link.json", "dirlink/secret.json", "../secret.json", secret.toString(), "/etc/passwd")) {
            assertThatThrownBy(() -> dirs.resolve(escape)).as(escape).isInstanceOf(ToolError.class)
                    .hasMessage(escape + ": outside the directories this server may read (--allow-dir)");
        }
        assertThatThrownBy(() -> dirs.resolve("sub")).hasMessage("sub: not a file");
        assertThatThrownBy(() -> dirs.resolve("none.json")).hasMessage("none.json: no such file");
        assertThatThrownBy(() -> dirs.resolve("a\u0000b")).hasMessage("a\\u0000b: not a valid path");
    }

    @Test
    void withoutDirectoriesNothingIsRead() {
        assertThatThrownBy(() -> new AllowedDirs(List.of()).resolve("t.json"))
                .hasMessageStartingWith("reading files is off: start the server with --allow-dir DIR");
    }
}
