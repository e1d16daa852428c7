<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>ClusterChecks</name>
    <message>
        <location filename="../app/src/designer/clusterchecks.cpp" line="+29"/>
        <source>&quot;%1&quot; is not a queue of this cluster; use one of %2</source>
        <translation>&quot;%1&quot; is not a queue of this cluster; use one of %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>is %1, more than the largest container this cluster grants (%2); ask for at most that</source>
        <translation>is %1, more than the largest container this cluster grants (%2); ask for at most that</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>is %1, more than the largest container this cluster grants (%2 vcores); ask for at most that</source>
        <translation>is %1, more than the largest container this cluster grants (%2 vcores); ask for at most that</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>asks for %1 GPUs, but no node of this cluster has any</source>
        <translation>asks for %1 GPUs, but no node of this cluster has any</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>asks for %1 GPUs, but no node of this cluster has more than %2</source>
        <translation>asks for %1 GPUs, but no node of this cluster has more than %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&quot;%1&quot; is a label no node of this cluster has (it has no labelled nodes); fix the label or leave it out</source>
        <translation>&quot;%1&quot; is a label no node of this cluster has (it has no labelled nodes); fix the label or leave it out</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&quot;%1&quot; is a label no node of this cluster has (labels in use: %2); fix the label or leave it out</source>
        <translation>&quot;%1&quot; is a label no node of this cluster has (labels in use: %2); fix the label or leave it out</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>queue &quot;%1&quot; cannot run containers on nodes labelled &quot;%2&quot;; submit to a queue that can (%3)</source>
        <translation>queue &quot;%1&quot; cannot run containers on nodes labelled &quot;%2&quot;; submit to a queue that can (%3)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>none</source>
        <translation>none</translation>
    </message>
</context>
<context>
    <name>HadoopSetup</name>
    <message>
        <location filename="../app/src/cluster/hadoopsetup.cpp" line="+73"/>
        <source>the Spindle server at %1</source>
        <translation>the Spindle server at %1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1; the keytab and principal are in Settings</source>
        <translation>%1; the keytab and principal are in Settings</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1, or set a keytab in Settings</source>
        <translation>%1, or set a keytab in Settings</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../app/src/compare/compareview.cpp" line="+50"/>
        <source>not in the job history</source>
        <translation>not in the job history</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>its spec could not be read back</source>
        <translation>its spec could not be read back</translation>
    </message>
</context>
<context>
    <name>Units</name>
    <message>
        <location filename="../app/src/convert.cpp" line="+17"/>
        <location line="+2"/>
        <location line="+30"/>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <location line="-27"/>
        <location line="+30"/>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
</context>
<context>
    <name>spindle::gui::ApplicationPage</name>
    <message>
        <location filename="../app/src/designer/applicationpage.cpp" line="+56"/>
        <source>e.g. wine-quality (default: the file&apos;s name)</source>
        <translation>e.g. wine-quality (default: the file&apos;s name)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>YARN&apos;s application priority; higher runs first where the scheduler allows it</source>
        <translation>YARN&apos;s application priority; higher runs first where the scheduler allows it</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Generic (any command)</source>
        <translation>Generic (any command)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e.g. hdfs:///user/me/runs/wine</source>
        <translation>e.g. hdfs:///user/me/runs/wine</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DTF_OUTPUT_PATH and SPINDLE_OUTPUT; TensorBoard&apos;s log directory</source>
        <translation>DTF_OUTPUT_PATH and SPINDLE_OUTPUT; TensorBoard&apos;s log directory</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>optional; given to tasks as DTF_INPUT_PATH</source>
        <translation>optional; given to tasks as DTF_INPUT_PATH</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>optional; shipped and named in DTF_TASK_SCRIPT</source>
        <translation>optional; shipped and named in DTF_TASK_SCRIPT</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose a local output directory</source>
        <translation>Choose a local output directory</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose the script</source>
        <translation>Choose the script</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>none: the nodes&apos; own Python; or current, a venv&apos;s directory, an archive</source>
        <translation>none: the nodes&apos; own Python; or current, a venv&apos;s directory, an archive</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The Python environment every task runs with (python_env). current is the active venv; it is packed once, kept on the cluster under a name that changes with its content, and unpacked once per node</source>
        <translation>The Python environment every task runs with (python_env). current is the active venv; it is packed once, kept on the cluster under a name that changes with its content, and unpacked once per node</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>C&amp;urrent</source>
        <translation>C&amp;urrent</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ship the environment spindle-gui runs in (VIRTUAL_ENV, or the first python3 on PATH)</source>
        <translation>Ship the environment spindle-gui runs in (VIRTUAL_ENV, or the first python3 on PATH)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose a venv&apos;s directory</source>
        <translation>Choose a venv&apos;s directory</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>comma-separated, e.g. nightly, team-a</source>
        <translation>comma-separated, e.g. nightly, team-a</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>How often YARN may start the application master</source>
        <translation>How often YARN may start the application master</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no limit; e.g. 90m or 2h</source>
        <translation>no limit; e.g. 90m or 2h</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>60s (default); 0 turns the check off</source>
        <translation>60s (default); 0 turns the check off</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A running task whose executor sends no heartbeat for this long is lost; executors beat every 5 s</source>
        <translation>A running task whose executor sends no heartbeat for this long is lost; executors beat every 5 s</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+4"/>
        <source>10m (default); 0 waits as long as it takes</source>
        <translation>10m (default); 0 waits as long as it takes</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>How long a task whose node was lost waits for a container on another node before the job fails</source>
        <translation>How long a task whose node was lost waits for a container on another node before the job fails</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>How long the tasks may take to get all their containers before the job gives back every one it holds</source>
        <translation>How long the tasks may take to get all their containers before the job gives back every one it holds</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fail the job</source>
        <translation>Fail the job</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wait holding nothing, then try again</source>
        <translation>Wait holding nothing, then try again</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>off (default); 30s or more</source>
        <translation>off (default); 30s or more</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A running task that writes nothing (stdout, stderr, the output) and uses under 5% of a core for this long is stalled</source>
        <translation>A running task that writes nothing (stdout, stderr, the output) and uses under 5% of a core for this long is stalled</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Report it</source>
        <translation>Report it</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restart the task</source>
        <translation>Restart the task</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fail the task</source>
        <translation>Fail the task</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>optional; passed on as DTF_DOCKER_IMAGE</source>
        <translation>optional; passed on as DTF_DOCKER_IMAGE</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>comma-separated, e.g. hdfs://nn2:8020, webhdfs://nn3:9870</source>
        <translation>comma-separated, e.g. hdfs://nn2:8020, webhdfs://nn3:9870</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>NameNodes besides the default file system that the job uses; on a Kerberos cluster it gets delegation tokens for each</source>
        <translation>NameNodes besides the default file system that the job uses; on a Kerberos cluster it gets delegation tokens for each</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>optional; e.g. alice@EXAMPLE.COM, with its keytab</source>
        <translation>optional; e.g. alice@EXAMPLE.COM, with its keytab</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>On a Kerberos cluster: the principal the job runs as. With its keytab the job&apos;s application master gets new delegation tokens before the old ones end, so the job may run longer than their maximum lifetime</source>
        <translation>On a Kerberos cluster: the principal the job runs as. With its keytab the job&apos;s application master gets new delegation tokens before the old ones end, so the job may run longer than their maximum lifetime</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the principal&apos;s keytab file</source>
        <translation>the principal&apos;s keytab file</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Goes to the job&apos;s application master alone, readable only by you, and is removed from the cluster when the job ends</source>
        <translation>Goes to the job&apos;s application master alone, readable only by you, and is removed from the cluster when the job ends</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose the keytab</source>
        <translation>Choose the keytab</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>256 MiB</source>
        <translation>256 MiB</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Application</source>
        <translation>Application</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Queue:</source>
        <translation>&amp;Queue:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Priority:</source>
        <translation>&amp;Priority:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Framework:</source>
        <translation>&amp;Framework:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Output directory:</source>
        <translation>&amp;Output directory:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Input:</source>
        <translation>&amp;Input:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Script:</source>
        <translation>&amp;Script:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Shipped to every container</source>
        <translation>Shipped to every container</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>F&amp;iles:</source>
        <translation>F&amp;iles:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Archives:</source>
        <translation>&amp;Archives:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Environment:</source>
        <translation>&amp;Environment:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>P&amp;ython environment:</source>
        <translation>P&amp;ython environment:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Advanced</source>
        <translation>Advanced</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Tags:</source>
        <translation>&amp;Tags:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ma&amp;x attempts:</source>
        <translation>Ma&amp;x attempts:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time&amp;out:</source>
        <translation>Time&amp;out:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Heartbeat timeo&amp;ut:</source>
        <translation>Heartbeat timeo&amp;ut:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Replacement timeout:</source>
        <translation>&amp;Replacement timeout:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Allocation timeout:</source>
        <translation>&amp;Allocation timeout:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>When not all &amp;granted:</source>
        <translation>When not all &amp;granted:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stall t&amp;imeout:</source>
        <translation>Stall t&amp;imeout:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>When a task &amp;stalls:</source>
        <translation>When a task &amp;stalls:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Docker image:</source>
        <translation>&amp;Docker image:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fi&amp;le systems:</source>
        <translation>Fi&amp;le systems:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kerberos prin&amp;cipal:</source>
        <translation>Kerberos prin&amp;cipal:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Keytab:</source>
        <translation>&amp;Keytab:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Application master &amp;memory:</source>
        <translation>Application master &amp;memory:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Application master &amp;vcores:</source>
        <translation>Application master &amp;vcores:</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Output directory</source>
        <translation>Output directory</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Script</source>
        <translation>Script</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Keytab</source>
        <translation>Keytab</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Python environment</source>
        <translation>Python environment</translation>
    </message>
    <message numerus="yes">
        <location line="+161"/>
        <source>%n queue(s) on this cluster</source>
        <translation>
            <numerusform>%n queue on this cluster</numerusform>
            <numerusform>%n queues on this cluster</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>at most %1</source>
        <translation>at most %1</translation>
    </message>
</context>
<context>
    <name>spindle::gui::ClusterView</name>
    <message>
        <location filename="../app/src/cluster/clusterview.cpp" line="+71"/>
        <source>&amp;Refresh</source>
        <translation>&amp;Refresh</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Queue</source>
        <translation>Queue</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+15"/>
        <source>State</source>
        <translation>State</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Capacity</source>
        <translation>Capacity</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Used</source>
        <translation>Used</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Maximum</source>
        <translation>Maximum</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Running</source>
        <translation>Running</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+14"/>
        <source>Labels</source>
        <translation>Labels</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Pending</source>
        <translation>Pending</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queues</source>
        <translation>Queues</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Label</source>
        <translation>Label</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+19"/>
        <source>Nodes</source>
        <translation>Nodes</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>GPUs used</source>
        <translation>GPUs used</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Memory used (MiB)</source>
        <translation>Memory used (MiB)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Node labels</source>
        <translation>Node labels</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Node</source>
        <translation>Node</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Containers</source>
        <translation>Containers</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Memory (MiB)</source>
        <translation>Memory (MiB)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Vcores</source>
        <translation>Vcores</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Health</source>
        <translation>Health</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Filter nodes by name, state, label or health</source>
        <translation>Filter nodes by name, state, label or health</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Filter:</source>
        <translation>&amp;Filter:</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Not asked yet.</source>
        <translation>Not asked yet.</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>The cluster did not answer: %1</source>
        <translation>The cluster did not answer: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last heard from the cluster at %1; it does not answer now: %2</source>
        <translation>Last heard from the cluster at %1; it does not answer now: %2</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n node(s), as of %1</source>
        <translation>
            <numerusform>%n node, as of %1</numerusform>
            <numerusform>%n nodes, as of %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+19"/>
        <source>(no label)</source>
        <translation>(no label)</translation>
    </message>
</context>
<context>
    <name>spindle::gui::CompareView</name>
    <message numerus="yes">
        <location filename="../app/src/compare/compareview.cpp" line="+56"/>
        <source>Reading the event files of %n job(s)…</source>
        <translation>
            <numerusform>Reading the event files of %n job…</numerusform>
            <numerusform>Reading the event files of %n jobs…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Runs compared</source>
        <translation>Runs compared</translation>
    </message>
    <message numerus="yes">
        <location line="+52"/>
        <source>%n job(s); the keys of their specs that differ are in the table.</source>
        <translation>
            <numerusform>%n job; the keys of its spec are in the table.</numerusform>
            <numerusform>%n jobs; the keys of their specs that differ are in the table.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Series</source>
        <translation>Series</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>State</source>
        <translation>State</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Final</source>
        <translation>Final</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Best</source>
        <translation>Best</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>at step %1</source>
        <translation>at step %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>(not set)</source>
        <translation>(not set)</translation>
    </message>
</context>
<context>
    <name>spindle::gui::ContainerTableModel</name>
    <message>
        <location filename="../app/src/jobview/containertablemodel.cpp" line="+90"/>
        <source>stalled</source>
        <translation>stalled</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>stdout · stderr</source>
        <translation>stdout · stderr</translation>
    </message>
    <message numerus="yes">
        <location line="+57"/>
        <source>%n restart(s) spent, %1 container(s) lost</source>
        <translation>
            <numerusform>%n restart spent, %1 container(s) lost</numerusform>
            <numerusform>%n restarts spent, %1 container(s) lost</numerusform>
        </translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Task</source>
        <translation>Task</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>State</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exit code</source>
        <translation>Exit code</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restarts</source>
        <translation>Restarts</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Log</source>
        <translation>Log</translation>
    </message>
</context>
<context>
    <name>spindle::gui::DesktopNotifications</name>
    <message>
        <location filename="../app/src/notify/desktopnotifications.cpp" line="+20"/>
        <source>%1 succeeded</source>
        <translation>%1 succeeded</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 was killed</source>
        <translation>%1 was killed</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 has a stalled task</source>
        <translation>%1 has a stalled task</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 failed</source>
        <translation>%1 failed</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>there is no session bus (DBUS_SESSION_BUS_ADDRESS), so no notification service</source>
        <translation>there is no session bus (DBUS_SESSION_BUS_ADDRESS), so no notification service</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Open job</source>
        <translation>Open job</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the notification service did not answer: %1</source>
        <translation>the notification service did not answer: %1</translation>
    </message>
</context>
<context>
    <name>spindle::gui::EnvironmentPreview</name>
    <message>
        <location filename="../app/src/designer/environmentpreview.cpp" line="+23"/>
        <source>The task whose environment is shown</source>
        <translation>The task whose environment is shown</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Every task&apos;s address as task=host:port, separated by commas; made-up ones until you enter real ones</source>
        <translation>Every task&apos;s address as task=host:port, separated by commas; made-up ones until you enter real ones</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Variable</source>
        <translation>Variable</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Value</source>
        <translation>Value</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Copy as shell exports</source>
        <translation>&amp;Copy as shell exports</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy export NAME=&apos;value&apos; lines that a shell can source</source>
        <translation>Copy export NAME=&apos;value&apos; lines that a shell can source</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Task:</source>
        <translation>&amp;Task:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Hosts:</source>
        <translation>&amp;Hosts:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Application &amp;ID:</source>
        <translation>Application &amp;ID:</translation>
    </message>
    <message>
        <location line="+84"/>
        <source>The environment is shown once the spec has no problems.</source>
        <translation>The environment is shown once the spec has no problems.</translation>
    </message>
</context>
<context>
    <name>spindle::gui::FirstRunDialog</name>
    <message>
        <location filename="../app/src/settings/firstrundialog.cpp" line="+17"/>
        <source>Welcome to Spindle</source>
        <translation>Welcome to Spindle</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Spindle runs training jobs on a Hadoop YARN cluster. Which cluster should it use?

To try it on this machine, start the local YARN: a real ResourceManager, two NodeManagers (one labelled gpu) and HDFS, in one process. Or choose the Hadoop configuration directory of your cluster.</source>
        <translation>Spindle runs training jobs on a Hadoop YARN cluster. Which cluster should it use?

To try it on this machine, start the local YARN: a real ResourceManager, two NodeManagers (one labelled gpu) and HDFS, in one process. Or choose the Hadoop configuration directory of your cluster.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Start the &amp;local YARN</source>
        <translation>Start the &amp;local YARN</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Choose a configuration directory…</source>
        <translation>&amp;Choose a configuration directory…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Not now</source>
        <translation>&amp;Not now</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Output of spindle local up</source>
        <translation>Output of spindle local up</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Starting the local YARN; the first start builds it and takes a few minutes…</source>
        <translation>Starting the local YARN; the first start builds it and takes a few minutes…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Hadoop configuration directory</source>
        <translation>Hadoop configuration directory</translation>
    </message>
</context>
<context>
    <name>spindle::gui::JobDesignerWidget</name>
    <message>
        <location filename="../app/src/designer/jobdesignerwidget.cpp" line="+71"/>
        <source>Pages of the job</source>
        <translation>Pages of the job</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Add task type</source>
        <translation>&amp;Add task type</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Add chief, worker, ps, evaluator, tensorboard or a task type of your own</source>
        <translation>Add chief, worker, ps, evaluator, tensorboard or a task type of your own</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;move</source>
        <translation>Re&amp;move</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove the selected task type from the job</source>
        <translation>Remove the selected task type from the job</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Pages:</source>
        <translation>&amp;Pages:</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Application</source>
        <translation>Application</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Normalized YAML</source>
        <translation>Normalized YAML</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Problems</source>
        <translation>Problems</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;YAML</source>
        <translation>&amp;YAML</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E&amp;nvironment</source>
        <translation>E&amp;nvironment</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+257"/>
        <source>Pro&amp;blems</source>
        <translation>Pro&amp;blems</translation>
    </message>
    <message>
        <location line="-254"/>
        <source>Will it fit now</source>
        <translation>Will it fit now</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Check &amp;again</source>
        <translation>Check &amp;again</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask the cluster for its nodes and queues again</source>
        <translation>Ask the cluster for its nodes and queues again</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>F&amp;it now</source>
        <translation>F&amp;it now</translation>
    </message>
    <message>
        <location line="+73"/>
        <source>Opened %1</source>
        <translation>Opened %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Could not write %1: %2</source>
        <translation>Could not write %1: %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Saved %1</source>
        <translation>Saved %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Unsaved changes</source>
        <translation>Unsaved changes</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The job spec has changes that are not saved. Save them first?</source>
        <translation>The job spec has changes that are not saved. Save them first?</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Open job spec</source>
        <translation>Open job spec</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Job specs (*.yaml *.yml *.json);;All files (*)</source>
        <translation>Job specs (*.yaml *.yml *.json);;All files (*)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cannot open the job spec</source>
        <translation>Cannot open the job spec</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 cannot be opened in the designer:</source>
        <translation>%1 cannot be opened in the designer:</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Save a spec with problems?</source>
        <translation>Save a spec with problems?</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>The spec has %n problem(s). Save it as typed? spindle will refuse it until they are fixed.</source>
        <translation>
            <numerusform>The spec has %n problem. Save it as typed? spindle will refuse it until it is fixed.</numerusform>
            <numerusform>The spec has %n problems. Save it as typed? spindle will refuse it until they are fixed.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot save the job spec</source>
        <translation>Cannot save the job spec</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Save job spec</source>
        <translation>Save job spec</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>YAML job specs (*.yaml *.yml)</source>
        <translation>YAML job specs (*.yaml *.yml)</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>Valid. This is the spec as spindle reads it.</source>
        <translation>Valid. This is the spec as spindle reads it.</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Core accepts the spec, but the cluster would refuse it: %n problem(s).</source>
        <translation>
            <numerusform>Core accepts the spec, but the cluster would refuse it: %n problem.</numerusform>
            <numerusform>Core accepts the spec, but the cluster would refuse it: %n problems.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n problem(s); showing the last valid spec.</source>
        <translation>
            <numerusform>%n problem; showing the last valid spec.</numerusform>
            <numerusform>%n problems; showing the last valid spec.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Pro&amp;blems (%1)</source>
        <translation>Pro&amp;blems (%1)</translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>%n problem(s) on this page</source>
        <translation>
            <numerusform>%n problem on this page</numerusform>
            <numerusform>%n problems on this page</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Connect to a cluster to see whether the job fits now.</source>
        <translation>Connect to a cluster to see whether the job fits now.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Fix the spec&apos;s problems to see whether it fits.</source>
        <translation>Fix the spec&apos;s problems to see whether it fits.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Fits now, as of %1.</source>
        <translation>Fits now, as of %1.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Waits for room, as of %1.</source>
        <translation>Waits for room, as of %1.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Never fits as it stands, as of %1.</source>
        <translation>Never fits as it stands, as of %1.</translation>
    </message>
    <message>
        <location line="+127"/>
        <source>Remove task type</source>
        <translation>Remove task type</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Remove “%1” and its settings from the job?</source>
        <translation>Remove “%1” and its settings from the job?</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Custom task type…</source>
        <translation>&amp;Custom task type…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Custom task type</source>
        <translation>Custom task type</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name of the task type (lower-case letters, digits and _):</source>
        <translation>Name of the task type (lower-case letters, digits and _):</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The job already has the task type “%1”.</source>
        <translation>The job already has the task type “%1”.</translation>
    </message>
</context>
<context>
    <name>spindle::gui::JobSummaryWidget</name>
    <message>
        <location filename="../app/src/jobs/jobsummarywidget.cpp" line="+71"/>
        <source>Job</source>
        <translation>Job</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>State:</source>
        <translation>State:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queue:</source>
        <translation>Queue:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>User:</source>
        <translation>User:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Submitted:</source>
        <translation>Submitted:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Duration:</source>
        <translation>Duration:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tracking URL:</source>
        <translation>Tracking URL:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Diagnostics:</source>
        <translation>Diagnostics:</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+3"/>
        <source>Task</source>
        <translation>Task</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Attempt</source>
        <translation>Attempt</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Exit code</source>
        <translation>Exit code</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Node</source>
        <translation>Node</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Address</source>
        <translation>Address</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Started</source>
        <translation>Started</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Finished</source>
        <translation>Finished</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Container</source>
        <translation>Container</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attempts</source>
        <translation>Attempts</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation>Time</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Event</source>
        <translation>Event</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Message</source>
        <translation>Message</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Events</source>
        <translation>Events</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Attempts</source>
        <translation>&amp;Attempts</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Events</source>
        <translation>&amp;Events</translation>
    </message>
    <message>
        <location line="+36"/>
        <location line="+9"/>
        <source>The history cannot be read: %1</source>
        <translation>The history cannot be read: %1</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>This machine&apos;s history has no job %1.</source>
        <translation>This machine&apos;s history has no job %1.</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>job</source>
        <translation>job</translation>
    </message>
</context>
<context>
    <name>spindle::gui::JobView</name>
    <message>
        <location filename="../app/src/jobview/jobview.cpp" line="+126"/>
        <source>TensorBoard is shown here, through Spindle&apos;s local proxy, while the job&apos;s tensorboard task runs.</source>
        <translation>TensorBoard is shown here, through Spindle&apos;s local proxy, while the job&apos;s tensorboard task runs.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Containers</source>
        <translation>Containers</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Logs</source>
        <translation>Logs</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Metrics</source>
        <translation>Metrics</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Resources</source>
        <translation>Resources</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TensorBoard</source>
        <translation>TensorBoard</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every task&apos;s container, live</source>
        <translation>Every task&apos;s container, live</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A task&apos;s stdout and stderr</source>
        <translation>A task&apos;s stdout and stderr</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Training scalars from the job&apos;s TensorFlow event files</source>
        <translation>Training scalars from the job&apos;s TensorFlow event files</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Memory and CPU of the containers over time</source>
        <translation>Memory and CPU of the containers over time</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The job&apos;s TensorBoard</source>
        <translation>The job&apos;s TensorBoard</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>%1 was killed.</source>
        <translation>%1 was killed.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The job could not be killed: %1</source>
        <translation>The job could not be killed: %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Kill…</source>
        <translation>&amp;Kill…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kill the job: every container of it stops</source>
        <translation>Kill the job: every container of it stops</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Resubmit…</source>
        <translation>&amp;Resubmit…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Submit the same spec again as a new job</source>
        <translation>Submit the same spec again as a new job</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open &amp;spec</source>
        <translation>Open &amp;spec</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show the job&apos;s spec as it was submitted</source>
        <translation>Show the job&apos;s spec as it was submitted</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy application ID</source>
        <translation>&amp;Copy application ID</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy %1 to the clipboard</source>
        <translation>Copy %1 to the clipboard</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open &amp;YARN UI</source>
        <translation>Open &amp;YARN UI</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open the job&apos;s page in the web browser (its tracking URL)</source>
        <translation>Open the job&apos;s page in the web browser (its tracking URL)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open &amp;MLflow run</source>
        <translation>Open &amp;MLflow run</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open the job&apos;s run in MLflow&apos;s web UI</source>
        <translation>Open the job&apos;s run in MLflow&apos;s web UI</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Unknown</source>
        <translation>Unknown</translation>
    </message>
    <message>
        <location line="+95"/>
        <source>The job %1.</source>
        <translation>The job %1.</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Kill job</source>
        <translation>Kill job</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kill %1 (%2)? Every container of it stops, and the job ends as killed.</source>
        <translation>Kill %1 (%2)? Every container of it stops, and the job ends as killed.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Killing %1…</source>
        <translation>Killing %1…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The history keeps no spec of this job.</source>
        <translation>The history keeps no spec of this job.</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Resubmit</source>
        <translation>Resubmit</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The job cannot be submitted again as it was:
%1</source>
        <translation>The job cannot be submitted again as it was:
%1</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Spec of %1</source>
        <translation>Spec of %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Open in &amp;designer</source>
        <translation>Open in &amp;designer</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Copied %1</source>
        <translation>Copied %1</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>TensorBoard cannot be shown: %1</source>
        <translation>TensorBoard cannot be shown: %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>TensorBoard of this job is served at &lt;a href=&quot;%1&quot;&gt;%1&lt;/a&gt;.</source>
        <translation>TensorBoard of this job is served at &lt;a href=&quot;%1&quot;&gt;%1&lt;/a&gt;.</translation>
    </message>
</context>
<context>
    <name>spindle::gui::JobsModel</name>
    <message>
        <location filename="../app/src/jobs/jobsmodel.cpp" line="+51"/>
        <location line="+72"/>
        <source>Submitted</source>
        <translation>Submitted</translation>
    </message>
    <message>
        <location line="-71"/>
        <source>Waiting</source>
        <translation>Waiting</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running</source>
        <translation>Running</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Succeeded</source>
        <translation>Succeeded</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>Failed</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Killed</source>
        <translation>Killed</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>Application ID</source>
        <translation>Application ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>State</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queue</source>
        <translation>Queue</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>User</source>
        <translation>User</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Duration</source>
        <translation>Duration</translation>
    </message>
</context>
<context>
    <name>spindle::gui::JobsWidget</name>
    <message>
        <location filename="../app/src/jobs/jobswidget.cpp" line="+28"/>
        <source>Search id, name, user or queue (Ctrl+F)</source>
        <translation>Search id, name, user or queue (Ctrl+F)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Search:</source>
        <translation>&amp;Search:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>All jobs</source>
        <translation>All jobs</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running and waiting</source>
        <translation>Running and waiting</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Succeeded</source>
        <translation>Succeeded</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed or killed</source>
        <translation>Failed or killed</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;how:</source>
        <translation>S&amp;how:</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Jobs</source>
        <translation>Jobs</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Open job</source>
        <translation>&amp;Open job</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy application ID</source>
        <translation>&amp;Copy application ID</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Compa&amp;re selected jobs</source>
        <translation>Compa&amp;re selected jobs</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No jobs yet. Design one and submit it, or submit one with spindle submit: it shows up here.</source>
        <translation>No jobs yet. Design one and submit it, or submit one with spindle submit: it shows up here.</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>The history cannot be read: %1</source>
        <translation>The history cannot be read: %1</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n job(s) shown</source>
        <translation>
            <numerusform>%n job shown</numerusform>
            <numerusform>%n jobs shown</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n not finished</source>
        <translation>
            <numerusform>%n not finished</numerusform>
            <numerusform>%n not finished</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>history: %1</source>
        <translation>history: %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not brought up to date: %1</source>
        <translation>Not brought up to date: %1</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Copied %1</source>
        <translation>Copied %1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Select two jobs or more to compare them (Ctrl or Shift and a click).</source>
        <translation>Select two jobs or more to compare them (Ctrl or Shift and a click).</translation>
    </message>
</context>
<context>
    <name>spindle::gui::KeyValueTable</name>
    <message>
        <location filename="../app/src/designer/keyvaluetable.cpp" line="+29"/>
        <source>Variable</source>
        <translation>Variable</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Value</source>
        <translation>Value</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name in the container</source>
        <translation>Name in the container</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Source</source>
        <translation>Source</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Add variable</source>
        <translation>Add variable</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Add row</source>
        <translation>Add row</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove</source>
        <translation>Remove</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add an environment variable (Insert)</source>
        <translation>Add an environment variable (Insert)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Add a row (Insert)</source>
        <translation>Add a row (Insert)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove the selected rows (Delete)</source>
        <translation>Remove the selected rows (Delete)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Choose archives…</source>
        <translation>Choose archives…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Choose files…</source>
        <translation>Choose files…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pick local files to ship to every container</source>
        <translation>Pick local files to ship to every container</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>Archives to ship</source>
        <translation>Archives to ship</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Archives (*.tar.gz *.tgz *.tar *.zip *.jar)</source>
        <translation>Archives (*.tar.gz *.tgz *.tar *.zip *.jar)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Files to ship</source>
        <translation>Files to ship</translation>
    </message>
</context>
<context>
    <name>spindle::gui::LocalYarn</name>
    <message>
        <location filename="../app/src/settings/localyarn.cpp" line="+20"/>
        <source>spindle local up ended with exit code %1; its output says why.</source>
        <translation>spindle local up ended with exit code %1; its output says why.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The local YARN started, but spindle local env names no configuration.</source>
        <translation>The local YARN started, but spindle local env names no configuration.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 could not be started.</source>
        <translation>%1 could not be started.</translation>
    </message>
</context>
<context>
    <name>spindle::gui::LogViewer</name>
    <message>
        <location filename="../app/src/jobview/logviewer.cpp" line="+32"/>
        <source>&amp;Follow</source>
        <translation>&amp;Follow</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask for new output every two seconds</source>
        <translation>Ask for new output every two seconds</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Reload</source>
        <translation>&amp;Reload</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Choose a task whose container has started.</source>
        <translation>Choose a task whose container has started.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Task:</source>
        <translation>&amp;Task:</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>%1: complete, from the logs kept after the job</source>
        <translation>%1: complete, from the logs kept after the job</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 @ %2: live, may grow</source>
        <translation>%1 @ %2: live, may grow</translation>
    </message>
</context>
<context>
    <name>spindle::gui::MainWindow</name>
    <message>
        <location filename="../app/src/mainwindow.cpp" line="+51"/>
        <source>Jobs</source>
        <translation>Jobs</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Designer</source>
        <translation>Designer</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Spec valid</source>
        <translation>Spec valid</translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <source>Spec: %n problem(s)</source>
        <translation>
            <numerusform>Spec: %n problem</numerusform>
            <numerusform>Spec: %n problems</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>Cluster %1: %n queue(s)</source>
        <translation>
            <numerusform>Cluster %1: %n queue</numerusform>
            <numerusform>Cluster %1: %n queues</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n node label(s)</source>
        <translation>
            <numerusform>%n node label</numerusform>
            <numerusform>%n node labels</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Largest container: %1 MiB, %2 vcores, %3 GPUs</source>
        <translation>Largest container: %1 MiB, %2 vcores, %3 GPUs</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Connected to %1</source>
        <translation>Connected to %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No cluster</source>
        <translation>No cluster</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;New job spec</source>
        <translation>&amp;New job spec</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Open job spec…</source>
        <translation>&amp;Open job spec…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Save</source>
        <translation>&amp;Save</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save &amp;as…</source>
        <translation>Save &amp;as…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Se&amp;ttings…</source>
        <translation>Se&amp;ttings…</translation>
    </message>
    <message>
        <location line="-66"/>
        <location line="+69"/>
        <source>&amp;Quit</source>
        <translation>&amp;Quit</translation>
    </message>
    <message>
        <location line="-107"/>
        <source>Sweeps</source>
        <translation>Sweeps</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>&amp;Show Spindle</source>
        <translation>&amp;Show Spindle</translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>Spindle: %n job(s) running</source>
        <translation>
            <numerusform>Spindle: %n job running</numerusform>
            <numerusform>Spindle: %n jobs running</numerusform>
        </translation>
    </message>
    <message>
        <location line="+64"/>
        <source>&amp;Job</source>
        <translation>&amp;Job</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Submit</source>
        <translation>&amp;Submit</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Submit the job of the designer to the cluster</source>
        <translation>Submit the job of the designer to the cluster</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open selected job</source>
        <translation>&amp;Open selected job</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Copy application ID</source>
        <translation>&amp;Copy application ID</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compa&amp;re selected jobs</source>
        <translation>Compa&amp;re selected jobs</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One chart per training scalar with a series per job, and the spec keys that differ</source>
        <translation>One chart per training scalar with a series per job, and the spec keys that differ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>C&amp;lose job tab</source>
        <translation>C&amp;lose job tab</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;View</source>
        <translation>&amp;View</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Jobs</source>
        <translation>&amp;Jobs</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Designer</source>
        <translation>&amp;Designer</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>C&amp;luster</source>
        <translation>C&amp;luster</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Sweeps</source>
        <translation>&amp;Sweeps</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Find job</source>
        <translation>&amp;Find job</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Refresh jobs</source>
        <translation>&amp;Refresh jobs</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Dar&amp;k palette</source>
        <translation>Dar&amp;k palette</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Cluster</source>
        <translation>&amp;Cluster</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Reload cluster information</source>
        <translation>&amp;Reload cluster information</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Help</source>
        <translation>&amp;Help</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About Spindle</source>
        <translation>&amp;About Spindle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>About Spindle</source>
        <translation>About Spindle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Spindle %1&lt;/b&gt;&lt;p&gt;Distributed TensorFlow, PyTorch or any command on Hadoop YARN: design a job, submit it, and follow it.&lt;/p&gt;</source>
        <translation>&lt;b&gt;Spindle %1&lt;/b&gt;&lt;p&gt;Distributed TensorFlow, PyTorch or any command on Hadoop YARN: design a job, submit it, and follow it.&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Compare (%1)</source>
        <translation>Compare (%1)</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>The spec has problems; fix them before submitting (see Problems).</source>
        <translation>The spec has problems; fix them before submitting (see Problems).</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Connecting…</source>
        <translation>Connecting…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>new job spec</source>
        <translation>new job spec</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1[*] — Spindle</source>
        <translation>%1[*] — Spindle</translation>
    </message>
</context>
<context>
    <name>spindle::gui::PythonEnvInspector</name>
    <message>
        <location filename="../app/src/designer/pythonenvinspector.cpp" line="+58"/>
        <source>installed on every node at %1; nothing is shipped</source>
        <translation>installed on every node at %1; nothing is shipped</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 in %2 files</source>
        <translation>%1 in %2 files</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no cluster to ask whether it holds it</source>
        <translation>no cluster to ask whether it holds it</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the Spindle server packs and ships it from its own machine at submit</source>
        <translation>the Spindle server packs and ships it from its own machine at submit</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>no cluster is set up to ask whether it holds it</source>
        <translation>no cluster is set up to ask whether it holds it</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>could not ask the cluster whether it holds it (%1)</source>
        <translation>could not ask the cluster whether it holds it (%1)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the cluster holds it as %1; a submit uploads nothing</source>
        <translation>the cluster holds it as %1; a submit uploads nothing</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the cluster does not hold it yet; the first submit packs and uploads it as %1</source>
        <translation>the cluster does not hold it yet; the first submit packs and uploads it as %1</translation>
    </message>
</context>
<context>
    <name>spindle::gui::ScalarChartView</name>
    <message>
        <location filename="../app/src/jobview/scalarchartview.cpp" line="+11"/>
        <location line="+36"/>
        <source>No training scalars yet: they appear as the job writes TensorFlow event files to its output.</source>
        <translation>No training scalars yet: they appear as the job writes TensorFlow event files to its output.</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>Step</source>
        <translation>Step</translation>
    </message>
</context>
<context>
    <name>spindle::gui::SeriesChartView</name>
    <message>
        <location filename="../app/src/jobview/serieschartview.cpp" line="+55"/>
        <source>Show:</source>
        <translation>Show:</translation>
    </message>
</context>
<context>
    <name>spindle::gui::SettingsDialog</name>
    <message>
        <location filename="../app/src/settings/settingsdialog.cpp" line="+40"/>
        <source>there is no such file</source>
        <translation>there is no such file</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is a directory</source>
        <translation>it is a directory</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Settings</source>
        <translation>Settings</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>empty: HADOOP_CONF_DIR of the environment</source>
        <translation>empty: HADOOP_CONF_DIR of the environment</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Browse…</source>
        <translation>&amp;Browse…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use the &amp;local YARN</source>
        <translation>Use the &amp;local YARN</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The configuration of the single-machine YARN that spindle local up starts</source>
        <translation>The configuration of the single-machine YARN that spindle local up starts</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Hadoop &amp;configuration:</source>
        <translation>Hadoop &amp;configuration:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>empty: the ticket from kinit</source>
        <translation>empty: the ticket from kinit</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the keytab file of the principal</source>
        <translation>the keytab file of the principal</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>B&amp;rowse…</source>
        <translation>B&amp;rowse…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Kerberos login</source>
        <translation>Kerberos login</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Principal:</source>
        <translation>&amp;Principal:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Keytab:</source>
        <translation>&amp;Keytab:</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>With a principal and its keytab, Spindle gets its own tickets and leaves the ticket cache of kinit alone.</source>
        <translation>With a principal and its keytab, Spindle gets its own tickets and leaves the ticket cache of kinit alone.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Connect through a Spindle &amp;server</source>
        <translation>Connect through a Spindle &amp;server</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the address spindle serve printed, with its ?token=</source>
        <translation>the address spindle serve printed, with its ?token=</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Without a token the app signs in with your Kerberos ticket, when the server takes Kerberos logins (spindle serve --keytab).</source>
        <translation>Without a token the app signs in with your Kerberos ticket, when the server takes Kerberos logins (spindle serve --keytab).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>https only: its certificate.pem; empty: the system&apos;s CAs</source>
        <translation>https only: its certificate.pem; empty: the system&apos;s CAs</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Bro&amp;wse…</source>
        <translation>Bro&amp;wse…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Spindle server</source>
        <translation>Spindle server</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Address:</source>
        <translation>&amp;Address:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>C&amp;ertificate:</source>
        <translation>C&amp;ertificate:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>When the cluster is reached only from a gateway node: run spindle serve there, open an SSH tunnel (ssh -L PORT:127.0.0.1:PORT gateway) and paste the address it printed. Every view then asks that server instead of the cluster, and the Hadoop configuration above is not used.</source>
        <translation>When the cluster is reached only from a gateway node: run spindle serve there, open an SSH tunnel (ssh -L PORT:127.0.0.1:PORT gateway) and paste the address it printed. Every view then asks that server instead of the cluster, and the Hadoop configuration above is not used.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>empty: MLFLOW_TRACKING_URI of the environment</source>
        <translation>empty: MLFLOW_TRACKING_URI of the environment</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Experiment tracking</source>
        <translation>Experiment tracking</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;MLflow server:</source>
        <translation>&amp;MLflow server:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Jobs whose spec names no MLflow server are recorded as runs there.</source>
        <translation>Jobs whose spec names no MLflow server are recorded as runs there.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notify me when my &amp;jobs end</source>
        <translation>Notify me when my &amp;jobs end</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep running in the &amp;tray when the window is closed</source>
        <translation>Keep running in the &amp;tray when the window is closed</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Notifications</source>
        <translation>Notifications</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Dark palette</source>
        <translation>&amp;Dark palette</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>System language</source>
        <translation>System language</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Appearance</source>
        <translation>Appearance</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Language:</source>
        <translation>&amp;Language:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A new language shows after a restart.</source>
        <translation>A new language shows after a restart.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;OK</source>
        <translation>&amp;OK</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Cancel</source>
        <translation>&amp;Cancel</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Hadoop configuration directory</source>
        <translation>Hadoop configuration directory</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>The Spindle server&apos;s certificate</source>
        <translation>The Spindle server&apos;s certificate</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PEM certificates (*.pem *.crt);;All files (*)</source>
        <translation>PEM certificates (*.pem *.crt);;All files (*)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Keytab file</source>
        <translation>Keytab file</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keytab files (*.keytab);;All files (*)</source>
        <translation>Keytab files (*.keytab);;All files (*)</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>%1 cannot be read: %2; choose the certificate.pem that spindle serve keeps in its state directory&apos;s serve/</source>
        <translation>%1 cannot be read: %2; choose the certificate.pem that spindle serve keeps in its state directory&apos;s serve/</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Not used while the app connects through a Spindle server (below).</source>
        <translation>Not used while the app connects through a Spindle server (below).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No configuration: HADOOP_CONF_DIR is not set. Choose a directory or use the local YARN.</source>
        <translation>No configuration: HADOOP_CONF_DIR is not set. Choose a directory or use the local YARN.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 has no yarn-site.xml.</source>
        <translation>%1 has no yarn-site.xml.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reads %1</source>
        <translation>Reads %1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>give the principal the keytab was made for (such as alice@EXAMPLE.COM), or clear the keytab to use the ticket from kinit</source>
        <translation>give the principal the keytab was made for (such as alice@EXAMPLE.COM), or clear the keytab to use the ticket from kinit</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>choose the keytab file of %1, or clear the principal to use the ticket from kinit</source>
        <translation>choose the keytab file of %1, or clear the principal to use the ticket from kinit</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>give the full path of the keytab file</source>
        <translation>give the full path of the keytab file</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 cannot be read: %2; choose the keytab file `kadmin` or your administrator gave you</source>
        <translation>%1 cannot be read: %2; choose the keytab file `kadmin` or your administrator gave you</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>give the http:// or https:// address of an MLflow tracking server (such as http://mlflow.example.com:5000), or leave it empty</source>
        <translation>give the http:// or https:// address of an MLflow tracking server (such as http://mlflow.example.com:5000), or leave it empty</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Local YARN</source>
        <translation>Local YARN</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The local YARN does not run. Start it with spindle local up (or from the first-run dialog), then choose it here.</source>
        <translation>The local YARN does not run. Start it with spindle local up (or from the first-run dialog), then choose it here.</translation>
    </message>
</context>
<context>
    <name>spindle::gui::SubmitDialog</name>
    <message>
        <location filename="../app/src/submit/submitdialog.cpp" line="+24"/>
        <source>Submit %1</source>
        <translation>Submit %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ready to submit to %1.</source>
        <translation>Ready to submit to %1.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>the cluster</source>
        <translation>the cluster</translation>
    </message>
    <message>
        <location line="+15"/>
        <location line="+10"/>
        <location line="+2"/>
        <source>waiting</source>
        <translation>waiting</translation>
    </message>
    <message>
        <location line="-8"/>
        <location line="+4"/>
        <source>%v of %m</source>
        <translation>%v of %m</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Environment packed:</source>
        <translation>Environment packed:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Environment uploaded:</source>
        <translation>Environment uploaded:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Files staged:</source>
        <translation>Files staged:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Containers allocated:</source>
        <translation>Containers allocated:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tasks registered:</source>
        <translation>Tasks registered:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Submit log</source>
        <translation>Submit log</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Open job</source>
        <translation>&amp;Open job</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Close</source>
        <translation>&amp;Close</translation>
    </message>
    <message>
        <location line="+20"/>
        <location line="+20"/>
        <source>%1 of %2</source>
        <translation>%1 of %2</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>unchanged since it was packed</source>
        <translation>unchanged since it was packed</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the cluster holds %1 already</source>
        <translation>the cluster holds %1 already</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Submitted %1; waiting for YARN.</source>
        <translation>Submitted %1; waiting for YARN.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>submitted %1 (files in %2)</source>
        <translation>submitted %1 (files in %2)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 is %2.</source>
        <translation>%1 is %2.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>job</source>
        <translation>job</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 succeeded.</source>
        <translation>%1 succeeded.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 ended %2.</source>
        <translation>%1 ended %2.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Submitting %1…</source>
        <translation>Submitting %1…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Lost track of %1; it may still run.</source>
        <translation>Lost track of %1; it may still run.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The cluster refused the job&apos;s settings.</source>
        <translation>The cluster refused the job&apos;s settings.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The job could not be submitted.</source>
        <translation>The job could not be submitted.</translation>
    </message>
</context>
<context>
    <name>spindle::gui::SweepsView</name>
    <message>
        <location filename="../app/src/sweeps/sweepsview.cpp" line="+170"/>
        <source>Sweep</source>
        <translation>Sweep</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+106"/>
        <source>State</source>
        <translation>State</translation>
    </message>
    <message>
        <location line="-106"/>
        <source>Trials ended</source>
        <translation>Trials ended</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+106"/>
        <source>Best</source>
        <translation>Best</translation>
    </message>
    <message>
        <location line="-105"/>
        <source>Compare ticked trials</source>
        <translation>Compare ticked trials</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Opens the comparison view for the trials ticked in the first column</source>
        <translation>Opens the comparison view for the trials ticked in the first column</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+164"/>
        <source>Stop trial</source>
        <translation>Stop trial</translation>
    </message>
    <message>
        <location line="-163"/>
        <source>Ends the selected trial as stopped by the sweep; its checkpoints and scalars stay</source>
        <translation>Ends the selected trial as stopped by the sweep; its checkpoints and scalars stay</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+162"/>
        <source>Kill trial</source>
        <translation>Kill trial</translation>
    </message>
    <message>
        <location line="-161"/>
        <location line="+170"/>
        <source>Kill sweep</source>
        <translation>Kill sweep</translation>
    </message>
    <message>
        <location line="-169"/>
        <source>Stops the sweep&apos;s controller and every trial still running</source>
        <translation>Stops the sweep&apos;s controller and every trial still running</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open MLflow run</source>
        <translation>Open MLflow run</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sweep&apos;s run in MLflow&apos;s web UI, with a child run for each trial</source>
        <translation>The sweep&apos;s run in MLflow&apos;s web UI, with a child run for each trial</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sweeps of this machine&apos;s history</source>
        <translation>Sweeps of this machine&apos;s history</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>The sweeps could not be read: %1</source>
        <translation>The sweeps could not be read: %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No sweeps: none was submitted from here (spindle sweep submit starts one)</source>
        <translation>No sweeps: none was submitted from here (spindle sweep submit starts one)</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n sweep(s)</source>
        <translation>
            <numerusform>%n sweep</numerusform>
            <numerusform>%n sweeps</numerusform>
        </translation>
    </message>
    <message>
        <location line="+14"/>
        <source>trial %1: %2 %3</source>
        <translation>trial %1: %2 %3</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 (%2): %3. Metric: %4 (%5).</source>
        <translation>%1 (%2): %3. Metric: %4 (%5).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>maximize</source>
        <translation>maximize</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>minimize</source>
        <translation>minimize</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Best: trial %1, %2 at step %3.</source>
        <translation>Best: trial %1, %2 at step %3.</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Trial</source>
        <translation>Trial</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Application</source>
        <translation>Application</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>At step</source>
        <translation>At step</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Why</source>
        <translation>Why</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Tick to compare; double-click to open the trial&apos;s job</source>
        <translation>Tick to compare; double-click to open the trial&apos;s job</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>trial %1</source>
        <translation>trial %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Stop trial %1? It ends as stopped by the sweep; its checkpoints and scalars stay.</source>
        <translation>Stop trial %1? It ends as stopped by the sweep; its checkpoints and scalars stay.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kill trial %1? It ends as killed.</source>
        <translation>Kill trial %1? It ends as killed.</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Sweeps</source>
        <translation>Sweeps</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>Kill %1? Its controller and every running trial stop.</source>
        <translation>Kill %1? Its controller and every running trial stop.</translation>
    </message>
</context>
<context>
    <name>spindle::gui::TaskTypePage</name>
    <message>
        <location filename="../app/src/designer/tasktypepage.cpp" line="+22"/>
        <source>Coordinates training and writes checkpoints. Its success ends the job.</source>
        <translation>Coordinates training and writes checkpoints. Its success ends the job.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Computes the training steps. Without a chief, worker 0 leads and the job succeeds once every worker has.</source>
        <translation>Computes the training steps. Without a chief, worker 0 leads and the job succeeds once every worker has.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Holds the model&apos;s variables for ParameterServerStrategy. A service: stopped when the job ends.</source>
        <translation>Holds the model&apos;s variables for ParameterServerStrategy. A service: stopped when the job ends.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Scores checkpoints as they appear. Outside the training cluster; may finish after the chief.</source>
        <translation>Scores checkpoints as they appear. Outside the training cluster; may finish after the chief.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Serves TensorBoard over the job&apos;s output directory; with no command it runs TensorBoard itself.</source>
        <translation>Serves TensorBoard over the job&apos;s output directory; with no command it runs TensorBoard itself.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A task type of your own. It sees the cluster&apos;s addresses but is not part of TensorFlow&apos;s training cluster.</source>
        <translation>A task type of your own. It sees the cluster&apos;s addresses but is not part of TensorFlow&apos;s training cluster.</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>e.g. 2 GiB, 512 MiB or 2048</source>
        <translation>e.g. 2 GiB, 512 MiB or 2048</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bare numbers are MiB; units are binary (KiB, MiB, GiB, TiB)</source>
        <translation>Bare numbers are MiB; units are binary (KiB, MiB, GiB, TiB)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>yarn.io/gpu per container</source>
        <translation>yarn.io/gpu per container</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Copies of the command in each container, each a rank of PyTorch&apos;s group (torchrun&apos;s --nproc-per-node)</source>
        <translation>Copies of the command in each container, each a rank of PyTorch&apos;s group (torchrun&apos;s --nproc-per-node)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>any node without an exclusive label</source>
        <translation>any node without an exclusive label</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>empty: run TensorBoard on the output directory</source>
        <translation>empty: run TensorBoard on the output directory</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>e.g. python train.py</source>
        <translation>e.g. python train.py</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run by /bin/sh in the container&apos;s working directory, with the task&apos;s environment</source>
        <translation>Run by /bin/sh in the container&apos;s working directory, with the task&apos;s environment</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>How often a failed task is started again before it counts as failed</source>
        <translation>How often a failed task is started again before it counts as failed</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tracked: the job waits for it</source>
        <translation>Tracked: the job waits for it</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Service: stopped when the job ends</source>
        <translation>Service: stopped when the job ends</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Its failure fails the &amp;job</source>
        <translation>Its failure fails the &amp;job</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Containers</source>
        <translation>Containers</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Instances:</source>
        <translation>&amp;Instances:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Memory:</source>
        <translation>&amp;Memory:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Vcores:</source>
        <translation>&amp;Vcores:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;GPUs:</source>
        <translation>&amp;GPUs:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Processes (PyTorch):</source>
        <translation>&amp;Processes (PyTorch):</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Node &amp;label:</source>
        <translation>Node &amp;label:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>What it runs</source>
        <translation>What it runs</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Command:</source>
        <translation>&amp;Command:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Environment:</source>
        <translation>&amp;Environment:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Max &amp;restarts:</source>
        <translation>Max &amp;restarts:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>R&amp;ole:</source>
        <translation>R&amp;ole:</translation>
    </message>
    <message>
        <location line="+74"/>
        <location line="+1"/>
        <location line="+1"/>
        <source>at most %1</source>
        <translation>at most %1</translation>
    </message>
</context>
<context>
    <name>spindle::gui::TensorBoardTab</name>
    <message>
        <location filename="../app/src/jobview/tensorboardtab.cpp" line="+26"/>
        <source>Reload TensorBoard</source>
        <translation>Reload TensorBoard</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open TensorBoard in the web browser</source>
        <translation>Open TensorBoard in the web browser</translation>
    </message>
</context>
<context>
    <name>spindle::gui::UsageChartView</name>
    <message>
        <location filename="../app/src/jobview/usagechartview.cpp" line="+11"/>
        <location line="+72"/>
        <source>No container use yet: executors report it while their tasks run.</source>
        <translation>No container use yet: executors report it while their tasks run.</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>Memory</source>
        <translation>Memory</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU use</source>
        <translation>CPU use</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Time</source>
        <translation>Time</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Resident memory (MiB)</source>
        <translation>Resident memory (MiB)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU (cores)</source>
        <translation>CPU (cores)</translation>
    </message>
</context>
</TS>
