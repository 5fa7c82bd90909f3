import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs commands as child processes and measures their wall time, their CPU time (user and system,
 * of all threads of the process and of the processes it starts, as a launcher script starts java) and
 * their peak RSS ({@code VmHWM} of the largest of those processes); the last two are read from /proc
 * every 5 ms, so a few milliseconds of CPU at the end of each process can be missed.
 */
final class Measure {
    /** The wall and CPU time in seconds, the peak RSS in MiB and the exit code of a command. */
    record Result(double wall, double cpu, double peakMiB, int exit) {
    }

    /** Clock ticks a second of /proc/PID/stat: 100 on Linux on every common architecture. */
    private static final double TICKS = 100.0;

    private Measure() {
    }

    /**
     * Runs every command once per round, {@code rounds} rounds, so that a load that comes and goes
     * falls on all of them alike; per command, the best wall time, the least CPU time and the
     * highest peak RSS.
     */
    static List<Result> interleaved(int rounds, List<List<String>> cmds) throws Exception {
        double[] best = new double[cmds.size()];
        double[] cpu = new double[cmds.size()];
        double[] peak = new double[cmds.size()];
        java.util.Arrays.fill(best, Double.MAX_VALUE);
        java.util.Arrays.fill(cpu, Double.MAX_VALUE);
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < cmds.size(); i++) {
                Result r = once(cmds.get(i), false);
                best[i] = Math.min(best[i], r.wall());
                cpu[i] = Math.min(cpu[i], r.cpu());
                peak[i] = Math.max(peak[i], r.peakMiB());
            }
        }
        List<Result> results = new ArrayList<>();
        for (int i = 0; i < cmds.size(); i++) {
            results.add(new Result(best[i], cpu[i], peak[i], 0));
        }
        return results;
    }

    /** Runs a command once, its output discarded; unless {@code anyExit}, fails on an exit other than 0 or 2. */
    static Result once(List<String> cmd, boolean anyExit) throws Exception {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Map<Long, Long> hwmByPid = new HashMap<>();
        Map<Long, Long> ticksByPid = new HashMap<>();
        while (p.isAlive()) {
            List<Long> pids = new ArrayList<>(List.of(p.pid()));
            p.toHandle().descendants().forEach(d -> pids.add(d.pid()));
            for (long pid : pids) {
                hwmByPid.merge(pid, readHwmKiB(Path.of("/proc/" + pid + "/status")), Math::max);
                ticksByPid.merge(pid, readCpuTicks(Path.of("/proc/" + pid + "/stat")), Math::max);
            }
            Thread.sleep(5);
        }
        long hwm = hwmByPid.values().stream().mapToLong(Long::longValue).max().orElse(0);
        long ticks = ticksByPid.values().stream().mapToLong(Long::longValue).sum();
        double wall = (System.nanoTime() - t0) / 1e9;
        int exit = p.exitValue();
        if (!anyExit && exit != 0 && exit != 2) {
            throw new IllegalStateException("exit " + exit + " from " + String.join(" ", cmd));
        }
        return new Result(wall, ticks / TICKS, hwm / 1024.0, exit);
    }

    /** Runs a command to its end and returns its standard output lines; fails on a non-zero exit. */
    static List<String> output(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> lines = new String(p.getInputStream().readAllBytes()).lines().toList();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("exit " + p.exitValue() + " from " + String.join(" ", cmd));
        }
        return lines;
    }

    /** utime + stime, the 14th and 15th fields, counted after the command name in parentheses. */
    private static long readCpuTicks(Path stat) {
        try {
            String line = Files.readString(stat);
            String[] f = line.substring(line.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static long readHwmKiB(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // The process ended between the check and the read.
        }
        return 0;
    }
}
