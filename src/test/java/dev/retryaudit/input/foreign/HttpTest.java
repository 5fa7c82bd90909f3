package dev.retryaudit.input.foreign;

import java.util.Locale;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/** URLs as requests are compared when they are linked. */
class HttpTest {
    @Test
    void aUrlAlreadyInItsComparedFormIsKeptAsItIs() {
        String url = "https://api.example/v1/items?x=1";
        assertThat(Http.normalisedUrl(url)).isSameAs(url);
        assertThat(Http.normalisedUrl("http://api.example:8080/")).isEqualTo("http://api.example:8080/");
    }

    @Test
    void schemeAndHostAreLowerCasedAndTheDefaultPortAndFragmentDropped() {
        assertThat(Http.normalisedUrl("HTTPS://API.Example:443/V1?Q=A#frag")).isEqualTo("https://api.example/V1?Q=A");
        assertThat(Http.normalisedUrl("https://api.example:443/v1")).isEqualTo("https://api.example/v1");
        assertThat(Http.normalisedUrl("http://api.example:80/v1")).isEqualTo("http://api.example/v1");
        assertThat(Http.normalisedUrl("https://api.example:80/v1")).isEqualTo("https://api.example:80/v1");
        assertThat(Http.normalisedUrl("http://api.example:443/v1")).isEqualTo("http://api.example:443/v1");
        assertThat(Http.normalisedUrl("https://api.example")).isEqualTo("https://api.example/");
        assertThat(Http.normalisedUrl("https://bücher.example/a")).isEqualTo("https://bücher.example/a");
        assertThat(Http.normalisedUrl("https://İ.example/a")).isEqualTo("https://" + "İ".toLowerCase(Locale.ROOT) + ".example/a");
        assertThat(Http.normalisedUrl("/relative/path")).isEqualTo("/relative/path");
        assertThat(Http.normalisedUrl(null)).isNull();
    }
}
