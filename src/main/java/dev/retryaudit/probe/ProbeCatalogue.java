package dev.retryaudit.probe;

import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.rules.engine.ListedFamily;
import java.util.List;

/**
 * The verdicts of a probe run that are reported as findings: rules of their own family, {@code probe}, that
 * {@code rules}, {@code explain} and SARIF know like the built-in ones, but that no audit runs over traces
 * (only {@code retry-audit probe} can tell that a run tested nothing, or that waits did not follow the
 * delays it asked for). They cannot be disabled: a probe run must never pass without testing anything. The
 * engine lists them as a {@link ListedFamily}, a service of the module.
 */
public final class ProbeCatalogue implements ListedFamily {
    /** The family of the probe's verdicts. */
    public static final String FAMILY = "probe";

    /** The run tested nothing: no request, no retry, a killed or failed client, or clients that cannot be told apart. */
    public static final RuleInfo NOT_TESTED = new RuleInfo(FAMILY + "/not-tested", Severity.ERROR,
            "the probe run tested nothing: the reason says why");

    /** Every retry waited long enough, but not because of Retry-After. */
    public static final RuleInfo NOT_FOLLOWED = new RuleInfo(FAMILY + "/not-followed", Severity.ERROR,
            "retries waited long enough but did not follow the delays Retry-After asked for");

    private static final List<RuleInfo> ALL = List.of(NOT_TESTED, NOT_FOLLOWED);

    /** The family as the engine lists it. */
    public ProbeCatalogue() {
    }

    @Override
    public String family() {
        return FAMILY;
    }

    @Override
    public List<RuleInfo> rules() {
        return ALL;
    }

    /** A policy names a verdict in vain: no audit runs it and a probe run always reports it. */
    @Override
    public String policyRefusal(String id) {
        return verdict(id) + ": a policy cannot configure it (no audit runs it, and a probe run always reports it)";
    }

    /** The probe's verdict rules, in catalogue order. */
    public static List<RuleInfo> all() {
        return ALL;
    }

    /** The probe rule with this id, or null. */
    public static RuleInfo byId(String id) {
        return ALL.stream().filter(r -> r.id().equals(id)).findFirst().orElse(null);
    }

    /** What {@code name}, the family or one of its rules, is: the start of every message that refuses it. */
    static String verdict(String name) {
        return name + " is a verdict of 'retry-audit probe', not a rule over traces";
    }

    /**
     * Why a name of the probe's verdicts in {@code enable}/{@code disable} (named in messages as
     * {@code enableName}/{@code disableName}) cannot be applied, or null: no audit runs them, and a probe run
     * ({@code probeRun}) always reports them, so there they may be enabled but never disabled.
     */
    public static String problem(List<String> enable, String enableName, List<String> disable, String disableName,
            boolean probeRun) {
        for (String n : disable) {
            if (names(n)) {
                return probeRun ? n + " cannot be disabled (" + disableName + "): a probe run that tested nothing,"
                        + " or whose waits did not follow Retry-After, must never pass" : notOnAudit(n, disableName);
            }
        }
        for (String n : enable) {
            if (names(n) && !probeRun) {
                return notOnAudit(n, enableName);
            }
        }
        return null;
    }

    private static String notOnAudit(String name, String what) {
        return verdict(name) + ": no audit runs it, so " + what + " cannot name it";
    }

    /** {@code names} less the probe's family and verdicts, which a probe run reports whatever is enabled. */
    public static List<String> withoutVerdicts(List<String> names) {
        return names.stream().filter(n -> !names(n)).toList();
    }

    /** Whether {@code name} is the probe family or one of its rules. */
    public static boolean names(String name) {
        return FAMILY.equals(name) || byId(name) != null;
    }
}
