# The stages of one Spark event log (jq -s -r -f stages.jq EVENTS...), one line each: tasks, wall time, and
# over its ended tasks the run time, CPU, GC, task deserialization and result serialization (seconds) and the
# shuffle written and read (MiB). A stage the run was stopped in says how many of its tasks had ended.
def s1: . * 10 | round / 10;
(map(select(.Event == "SparkListenerTaskEnd")) | group_by(."Stage ID")
  | map({key: (.[0]."Stage ID" | tostring), value: (map(."Task Metrics") | {
      n: length,
      run: (map(."Executor Run Time") | add / 1000),
      cpu: (map(."Executor CPU Time") | add / 1e9),
      gc: (map(."JVM GC Time") | add / 1000),
      deser: (map(."Executor Deserialize Time") | add / 1000),
      ser: (map(."Result Serialization Time") | add / 1000),
      written: (map(."Shuffle Write Metrics"."Shuffle Bytes Written") | add / 1048576),
      read: (map(."Shuffle Read Metrics" | ."Local Bytes Read" + ."Remote Bytes Read") | add / 1048576)})})
  | from_entries) as $tasks
| (map(select(.Event == "SparkListenerStageCompleted") | {key: (."Stage Info"."Stage ID" | tostring), value: ."Stage Info"})
  | from_entries) as $done
| map(select(.Event == "SparkListenerStageSubmitted") | ."Stage Info")[]
| (."Stage ID" | tostring) as $id
| ($tasks[$id] // {n: 0, run: 0, cpu: 0, gc: 0, deser: 0, ser: 0, written: 0, read: 0}) as $t
| "stage \($id): \(."Number of Tasks") tasks, "
  + (if $done[$id] then "\(($done[$id]."Completion Time" - $done[$id]."Submission Time") / 1000 | s1) s wall"
     else "not finished when stopped (\($t.n) tasks ended)" end)
  + "; task \($t.run | s1) s, CPU \($t.cpu | s1), GC \($t.gc | s1), deserialize \($t.deser | s1), result ser. \($t.ser | s1);"
  + " shuffle write \($t.written | round) MiB, read \($t.read | round) MiB; \(."Stage Name")"
