package dev.retryaudit.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File names from the command line, including bytes that no character set of the JVM decodes. */
class FileNamesTest {
    @TempDir
    Path dir;

    /** Creates a file whose name is {@code printf}'s rendering of {@code escaped}, bytes the JVM cannot name. */
    private void touch(String escaped) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "printf x > \"$(printf '" + escaped + "')\"")
                .directory(dir.toFile()).start();
        assertThat(p.waitFor()).isZero();
    }

    @Test
    void aPlainNameIsItsPath() throws Exception {
        assertThat(FileNames.resolve("a/b.json")).isEqualTo(Path.of("a/b.json"));
        assertThat(FileNames.resolve("-x")).isEqualTo(Path.of("-x"));
    }

    @Test
    void emptyAndNulNamesAreRefused() {
        assertThatThrownBy(() -> FileNames.resolve("")).hasMessage("the file name is empty");
        assertThatThrownBy(() -> FileNames.resolve("a\0b")).hasMessage("a file name cannot contain a NUL character");
    }

    @Test
    void aNameTheJvmCouldNotDecodeIsFoundByItsDirectoryEntry() throws Exception {
        touch("r\\377.json");
        Path found = FileNames.resolve(dir + "/r\uFFFD.json");
        assertThat(Files.readString(found)).isEqualTo("x");
        assertThat(FileNames.representable(dir + "/r\uFFFD.json")).isFalse();
        assertThat(FileNames.representable(dir + "/r.json")).isTrue();
    }

    @Test
    void twoEntriesThatDecodeAlikeAreNeitherChosen() throws Exception {
        touch("r\\377.json");
        touch("r\\376.json");
        assertThatThrownBy(() -> FileNames.resolve(dir + "/r\uFFFD.json"))
                .isInstanceOf(FileNames.UnusableNameException.class)
                .hasMessageStartingWith("several files match this name");
    }

    @Test
    void aMissingNameIsLeftForTheReaderToReport() throws Exception {
        assertThat(FileNames.resolve(dir + "/missing.json")).isEqualTo(Path.of(dir + "/missing.json"));
    }
}
