package dev.retryaudit.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Limits;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every example and spans fixture of the root project: the Spark job answers as the command line does. */
class FixtureParityTest {
    static Stream<Arguments> fixtures() throws Exception {
        return Parity.fixtures().stream().map(f -> Arguments.of(f[0], f[1]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void sameAnswerAsTheCommandLine(Path input, Path policy) {
        Parity.CliAnswer cli = Parity.assertSame(policy, Limits.DEFAULTS, List.of(input));
        assertThat(cli.exit()).isIn(0, 2, 65);
    }
}
