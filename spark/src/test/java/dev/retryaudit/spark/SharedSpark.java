package dev.retryaudit.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/** The one local Spark session of all tests: two cores, no UI, four shuffle partitions, the job's Kryo defaults. */
final class SharedSpark {
    private static SparkSession session;

    private SharedSpark() {
    }

    static synchronized SparkSession get() {
        if (session == null) {
            session = SparkSession.builder()
                    .config(KryoClasses.defaults(new SparkConf()))
                    .master("local[2]")
                    .appName("retry-audit-spark-tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "4")
                    .config("spark.default.parallelism", "4")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .getOrCreate();
            session.sparkContext().setLogLevel("ERROR");
        }
        return session;
    }
}
