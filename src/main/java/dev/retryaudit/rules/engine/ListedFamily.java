package dev.retryaudit.rules.engine;

import dev.retryaudit.rules.RuleInfo;
import java.util.List;

/**
 * A family of rules the engine lists beside the built-in ones ({@code rules}, {@code explain}, SARIF) but that
 * no audit runs over traces: a front end above the engine judges them (the probe's verdicts on a client run). A
 * family registers itself as a service of the module ({@code provides ListedFamily with ...}, and
 * {@code META-INF/services} on the class path); {@link RuleRegistry} lists every one it finds. A policy cannot
 * configure its rules, and {@code --enable}/{@code --disable} of an audit cannot name them.
 */
public interface ListedFamily {
    /** The family's id, the first part of each of its rule ids. */
    String family();

    /** Its rules, in catalogue order. */
    List<RuleInfo> rules();

    /** Why a policy cannot configure the rule {@code id}, one of {@link #rules()}: the whole message. */
    String policyRefusal(String id);
}
