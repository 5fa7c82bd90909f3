package dev.retryaudit.spark;

import dev.retryaudit.api.split.SplitReport;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Location;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Findings as rows: the JSON report's fields as columns ({@code evidence} as its JSON text,
 * {@code location} as a struct), the finding's JSON object exactly as the report writes it, and a
 * binary sort key that orders rows as the report orders findings.
 */
final class FindingRows {

    static final String ORDER = "order";
    static final String JSON = "json";

    static final StructType LOCATION = DataTypes.createStructType(new StructField[] {
        DataTypes.createStructField("source", DataTypes.StringType, false),
        DataTypes.createStructField("line", DataTypes.LongType, false),
        DataTypes.createStructField("column", DataTypes.LongType, false),
        DataTypes.createStructField("pointer", DataTypes.StringType, true)});

    /** The columns a caller sees, in the JSON report's order. */
    static final String[] COLUMNS = {"rule", "severity", "operation", "attempt", "tool", "run", "message", "evidence",
        "location", "fingerprint"};

    static final StructType SCHEMA = DataTypes.createStructType(new StructField[] {
        DataTypes.createStructField(ORDER, DataTypes.BinaryType, false),
        DataTypes.createStructField("rule", DataTypes.StringType, false),
        DataTypes.createStructField("severity", DataTypes.StringType, false),
        DataTypes.createStructField("operation", DataTypes.StringType, true),
        DataTypes.createStructField("attempt", DataTypes.IntegerType, true),
        DataTypes.createStructField("tool", DataTypes.StringType, true),
        DataTypes.createStructField("run", DataTypes.StringType, true),
        DataTypes.createStructField("message", DataTypes.StringType, false),
        DataTypes.createStructField("evidence", DataTypes.StringType, false),
        DataTypes.createStructField("location", LOCATION, false),
        DataTypes.createStructField("fingerprint", DataTypes.StringType, false),
        DataTypes.createStructField(JSON, DataTypes.StringType, false)});

    private FindingRows() {
    }

    static Row row(Finding f) {
        Location l = f.location();
        return RowFactory.create(SplitReport.orderKey(f), f.rule(), f.severity().id(), f.operation(), f.attempt(), f.tool(),
                f.run(), f.message(), SplitReport.evidenceJson(f),
                RowFactory.create(l.source(), l.line(), l.column(), l.pointer()), f.fingerprint(),
                SplitReport.findingJson(f));
    }
}
