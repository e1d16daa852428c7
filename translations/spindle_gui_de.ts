<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ClusterChecks</name>
    <message>
        <location filename="../app/src/designer/clusterchecks.cpp" line="+29"/>
        <source>&quot;%1&quot; is not a queue of this cluster; use one of %2</source>
        <translation>„%1“ ist keine Warteschlange dieses Clusters; verwenden Sie eine von %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>is %1, more than the largest container this cluster grants (%2); ask for at most that</source>
        <translation>beträgt %1, mehr als der größte Container, den dieser Cluster vergibt (%2); fordern Sie höchstens so viel an</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>is %1, more than the largest container this cluster grants (%2 vcores); ask for at most that</source>
        <translation>beträgt %1, mehr als der größte Container, den dieser Cluster vergibt (%2 vcores); fordern Sie höchstens so viel an</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>asks for %1 GPUs, but no node of this cluster has any</source>
        <translation>fordert %1 GPUs an, aber kein Knoten dieses Clusters hat welche</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>asks for %1 GPUs, but no node of this cluster has more than %2</source>
        <translation>fordert %1 GPUs an, aber kein Knoten dieses Clusters hat mehr als %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&quot;%1&quot; is a label no node of this cluster has (it has no labelled nodes); fix the label or leave it out</source>
        <translation>„%1“ ist ein Label, das kein Knoten dieses Clusters trägt (er hat keine Knoten mit Label); korrigieren Sie das Label oder lassen Sie es weg</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&quot;%1&quot; is a label no node of this cluster has (labels in use: %2); fix the label or leave it out</source>
        <translation>„%1“ ist ein Label, das kein Knoten dieses Clusters trägt (verwendete Labels: %2); korrigieren Sie das Label oder lassen Sie es weg</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>queue &quot;%1&quot; cannot run containers on nodes labelled &quot;%2&quot;; submit to a queue that can (%3)</source>
        <translation>die Warteschlange „%1“ kann keine Container auf Knoten mit dem Label „%2“ starten; reichen Sie bei einer Warteschlange ein, die das kann (%3)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>none</source>
        <translation>keine</translation>
    </message>
</context>
<context>
    <name>HadoopSetup</name>
    <message>
        <location filename="../app/src/cluster/hadoopsetup.cpp" line="+73"/>
        <source>the Spindle server at %1</source>
        <translation>der Spindle-Server unter %1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1; the keytab and principal are in Settings</source>
        <translation>%1; Keytab und Prinzipal stehen in den Einstellungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1, or set a keytab in Settings</source>
        <translation>%1, oder legen Sie in den Einstellungen eine Keytab fest</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../app/src/compare/compareview.cpp" line="+50"/>
        <source>not in the job history</source>
        <translation>nicht im Job-Verlauf</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>its spec could not be read back</source>
        <translation>seine Spezifikation ließ sich nicht zurücklesen</translation>
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
        <translation>z. B. wine-quality (Vorgabe: der Dateiname)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>YARN&apos;s application priority; higher runs first where the scheduler allows it</source>
        <translation>Anwendungspriorität in YARN; höhere läuft zuerst, wo der Scheduler es erlaubt</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Generic (any command)</source>
        <translation>Allgemein (beliebiger Befehl)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e.g. hdfs:///user/me/runs/wine</source>
        <translation>z. B. hdfs:///user/me/runs/wine</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DTF_OUTPUT_PATH and SPINDLE_OUTPUT; TensorBoard&apos;s log directory</source>
        <translation>DTF_OUTPUT_PATH und SPINDLE_OUTPUT; das Log-Verzeichnis von TensorBoard</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>optional; given to tasks as DTF_INPUT_PATH</source>
        <translation>optional; erhalten die Tasks als DTF_INPUT_PATH</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>optional; shipped and named in DTF_TASK_SCRIPT</source>
        <translation>optional; wird mitgeschickt und in DTF_TASK_SCRIPT genannt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose a local output directory</source>
        <translation>Lokales Ausgabeverzeichnis wählen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose the script</source>
        <translation>Skript wählen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>none: the nodes&apos; own Python; or current, a venv&apos;s directory, an archive</source>
        <translation>keine: das Python der Knoten; oder current, das Verzeichnis eines venv, ein Archiv</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The Python environment every task runs with (python_env). current is the active venv; it is packed once, kept on the cluster under a name that changes with its content, and unpacked once per node</source>
        <translation>Die Python-Umgebung, mit der jeder Task läuft (python_env). current ist das aktive venv; es wird einmal gepackt, auf dem Cluster unter einem Namen abgelegt, der sich mit seinem Inhalt ändert, und einmal je Knoten entpackt</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>C&amp;urrent</source>
        <translation>A&amp;ktuelle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ship the environment spindle-gui runs in (VIRTUAL_ENV, or the first python3 on PATH)</source>
        <translation>Die Umgebung mitschicken, in der spindle-gui läuft (VIRTUAL_ENV oder das erste python3 im PATH)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose a venv&apos;s directory</source>
        <translation>Verzeichnis eines venv wählen</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>comma-separated, e.g. nightly, team-a</source>
        <translation>durch Kommas getrennt, z. B. nightly, team-a</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>How often YARN may start the application master</source>
        <translation>Wie oft YARN den Application Master starten darf</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no limit; e.g. 90m or 2h</source>
        <translation>keine Grenze; z. B. 90m oder 2h</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>60s (default); 0 turns the check off</source>
        <translation>60s (Vorgabe); 0 schaltet die Prüfung ab</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A running task whose executor sends no heartbeat for this long is lost; executors beat every 5 s</source>
        <translation>Ein laufender Task, dessen Executor so lange keinen Heartbeat sendet, gilt als verloren; Executors senden alle 5 s einen</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+4"/>
        <source>10m (default); 0 waits as long as it takes</source>
        <translation>10m (Vorgabe); 0 wartet so lange wie nötig</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>How long a task whose node was lost waits for a container on another node before the job fails</source>
        <translation>Wie lange ein Task, dessen Knoten verloren ging, auf einen Container auf einem anderen Knoten wartet, bevor der Job fehlschlägt</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>How long the tasks may take to get all their containers before the job gives back every one it holds</source>
        <translation>Wie lange die Tasks brauchen dürfen, bis sie alle ihre Container haben, bevor der Job jeden zurückgibt, den er hält</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fail the job</source>
        <translation>Job scheitern lassen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wait holding nothing, then try again</source>
        <translation>Ohne Container warten, dann erneut versuchen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>off (default); 30s or more</source>
        <translation>aus (Vorgabe); 30s oder mehr</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A running task that writes nothing (stdout, stderr, the output) and uses under 5% of a core for this long is stalled</source>
        <translation>Eine laufende Aufgabe, die so lange nichts schreibt (stdout, stderr, die Ausgabe) und unter 5 % eines Kerns nutzt, hängt</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Report it</source>
        <translation>Melden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restart the task</source>
        <translation>Die Aufgabe neu starten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fail the task</source>
        <translation>Die Aufgabe scheitern lassen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>optional; passed on as DTF_DOCKER_IMAGE</source>
        <translation>optional; wird als DTF_DOCKER_IMAGE weitergegeben</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>comma-separated, e.g. hdfs://nn2:8020, webhdfs://nn3:9870</source>
        <translation>durch Kommas getrennt, z. B. hdfs://nn2:8020, webhdfs://nn3:9870</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>NameNodes besides the default file system that the job uses; on a Kerberos cluster it gets delegation tokens for each</source>
        <translation>NameNodes neben dem Standard-Dateisystem, die der Job nutzt; auf einem Kerberos-Cluster erhält er für jeden ein Delegation-Token</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>optional; e.g. alice@EXAMPLE.COM, with its keytab</source>
        <translation>optional; z. B. alice@EXAMPLE.COM, mit ihrer Keytab</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>On a Kerberos cluster: the principal the job runs as. With its keytab the job&apos;s application master gets new delegation tokens before the old ones end, so the job may run longer than their maximum lifetime</source>
        <translation>Auf einem Kerberos-Cluster: das Prinzipal, als das der Job läuft. Mit seiner Keytab holt der Application Master des Jobs neue Delegation-Tokens, bevor die alten enden; so kann der Job länger laufen als deren maximale Lebensdauer</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the principal&apos;s keytab file</source>
        <translation>die Keytab-Datei des Prinzipals</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Goes to the job&apos;s application master alone, readable only by you, and is removed from the cluster when the job ends</source>
        <translation>Geht allein an den Application Master des Jobs, nur für Sie lesbar, und wird vom Cluster entfernt, wenn der Job endet</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose the keytab</source>
        <translation>Keytab wählen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>256 MiB</source>
        <translation>256 MiB</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Application</source>
        <translation>Anwendung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Queue:</source>
        <translation>&amp;Warteschlange:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Priority:</source>
        <translation>&amp;Priorität:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Framework:</source>
        <translation>&amp;Framework:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Output directory:</source>
        <translation>&amp;Ausgabeverzeichnis:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Input:</source>
        <translation>&amp;Eingabe:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Script:</source>
        <translation>&amp;Skript:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Shipped to every container</source>
        <translation>An jeden Container verschickt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>F&amp;iles:</source>
        <translation>&amp;Dateien:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Archives:</source>
        <translation>A&amp;rchive:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Environment:</source>
        <translation>&amp;Umgebung:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>P&amp;ython environment:</source>
        <translation>P&amp;ython-Umgebung:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Advanced</source>
        <translation>Erweitert</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Tags:</source>
        <translation>&amp;Tags:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ma&amp;x attempts:</source>
        <translation>Max. &amp;Versuche:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time&amp;out:</source>
        <translation>&amp;Zeitlimit:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Heartbeat timeo&amp;ut:</source>
        <translation>Zeitlimit &amp;ohne Heartbeat:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Replacement timeout:</source>
        <translation>Ersatz-Zeit&amp;limit:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Allocation timeout:</source>
        <translation>Zeitlimit der Zu&amp;weisung:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>When not all &amp;granted:</source>
        <translation>Nicht alle zugewiesen, &amp;dann:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stall t&amp;imeout:</source>
        <translation>Zeitl&amp;imit ohne Fortschritt:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>When a task &amp;stalls:</source>
        <translation>Wenn eine Aufgabe hän&amp;gt:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Docker image:</source>
        <translation>Docker-&amp;Image:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fi&amp;le systems:</source>
        <translation>Dateisyste&amp;me:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kerberos prin&amp;cipal:</source>
        <translation>Kerberos-Prin&amp;zipal:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Keytab:</source>
        <translation>&amp;Keytab-Datei:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Application master &amp;memory:</source>
        <translation>Application Master: &amp;Speicher:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Application master &amp;vcores:</source>
        <translation>Application Master: v&amp;cores:</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Output directory</source>
        <translation>Ausgabeverzeichnis</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Script</source>
        <translation>Skript</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Keytab</source>
        <translation>Keytab</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Python environment</source>
        <translation>Python-Umgebung</translation>
    </message>
    <message numerus="yes">
        <location line="+161"/>
        <source>%n queue(s) on this cluster</source>
        <translation>
            <numerusform>%n Warteschlange auf diesem Cluster</numerusform>
            <numerusform>%n Warteschlangen auf diesem Cluster</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>at most %1</source>
        <translation>höchstens %1</translation>
    </message>
</context>
<context>
    <name>spindle::gui::ClusterView</name>
    <message>
        <location filename="../app/src/cluster/clusterview.cpp" line="+71"/>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+15"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Capacity</source>
        <translation>Kapazität</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Used</source>
        <translation>Belegt</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Maximum</source>
        <translation>Maximum</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Running</source>
        <translation>Läuft</translation>
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
        <translation>Wartend</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queues</source>
        <translation>Warteschlangen</translation>
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
        <translation>Knoten</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>GPUs used</source>
        <translation>Belegte GPUs</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Memory used (MiB)</source>
        <translation>Belegter Speicher (MiB)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Node labels</source>
        <translation>Knoten-Labels</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Containers</source>
        <translation>Container</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Memory (MiB)</source>
        <translation>Speicher (MiB)</translation>
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
        <translation>Zustandsbericht</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Filter nodes by name, state, label or health</source>
        <translation>Knoten nach Name, Zustand, Label oder Zustandsbericht filtern</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Filter:</source>
        <translation>&amp;Filter:</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Not asked yet.</source>
        <translation>Noch nicht gefragt.</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>The cluster did not answer: %1</source>
        <translation>Der Cluster hat nicht geantwortet: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last heard from the cluster at %1; it does not answer now: %2</source>
        <translation>Zuletzt vom Cluster gehört um %1; jetzt antwortet er nicht: %2</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n node(s), as of %1</source>
        <translation>
            <numerusform>%n Knoten, Stand %1</numerusform>
            <numerusform>%n Knoten, Stand %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+19"/>
        <source>(no label)</source>
        <translation>(kein Label)</translation>
    </message>
</context>
<context>
    <name>spindle::gui::CompareView</name>
    <message numerus="yes">
        <location filename="../app/src/compare/compareview.cpp" line="+56"/>
        <source>Reading the event files of %n job(s)…</source>
        <translation>
            <numerusform>Lese die Event-Dateien von %n Job…</numerusform>
            <numerusform>Lese die Event-Dateien von %n Jobs…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Runs compared</source>
        <translation>Verglichene Läufe</translation>
    </message>
    <message numerus="yes">
        <location line="+52"/>
        <source>%n job(s); the keys of their specs that differ are in the table.</source>
        <translation>
            <numerusform>%n Job; die Schlüssel seiner Spezifikation stehen in der Tabelle.</numerusform>
            <numerusform>%n Jobs; die Schlüssel ihrer Spezifikationen, die sich unterscheiden, stehen in der Tabelle.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Series</source>
        <translation>Reihe</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Final</source>
        <translation>Zuletzt</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Best</source>
        <translation>Bester</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>at step %1</source>
        <translation>bei Schritt %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>(not set)</source>
        <translation>(nicht gesetzt)</translation>
    </message>
</context>
<context>
    <name>spindle::gui::ContainerTableModel</name>
    <message>
        <location filename="../app/src/jobview/containertablemodel.cpp" line="+90"/>
        <source>stalled</source>
        <translation>hängt</translation>
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
            <numerusform>%n Neustart verbraucht, %1 Container verloren</numerusform>
            <numerusform>%n Neustarts verbraucht, %1 Container verloren</numerusform>
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
        <translation>Zustand</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host</source>
        <translation>Rechner</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exit code</source>
        <translation>Exit-Code</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restarts</source>
        <translation>Neustarts</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
</context>
<context>
    <name>spindle::gui::DesktopNotifications</name>
    <message>
        <location filename="../app/src/notify/desktopnotifications.cpp" line="+20"/>
        <source>%1 succeeded</source>
        <translation>%1 ist gelungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 was killed</source>
        <translation>%1 wurde abgebrochen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 has a stalled task</source>
        <translation>%1 hat eine hängende Aufgabe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 failed</source>
        <translation>%1 ist fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>there is no session bus (DBUS_SESSION_BUS_ADDRESS), so no notification service</source>
        <translation>es gibt keinen Sitzungsbus (DBUS_SESSION_BUS_ADDRESS), also keinen Benachrichtigungsdienst</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Open job</source>
        <translation>Job öffnen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the notification service did not answer: %1</source>
        <translation>der Benachrichtigungsdienst hat nicht geantwortet: %1</translation>
    </message>
</context>
<context>
    <name>spindle::gui::EnvironmentPreview</name>
    <message>
        <location filename="../app/src/designer/environmentpreview.cpp" line="+23"/>
        <source>The task whose environment is shown</source>
        <translation>Der Task, dessen Umgebung gezeigt wird</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Every task&apos;s address as task=host:port, separated by commas; made-up ones until you enter real ones</source>
        <translation>Die Adresse jedes Tasks als task=host:port, durch Kommas getrennt; erfundene, bis Sie echte eingeben</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Variable</source>
        <translation>Variable</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Copy as shell exports</source>
        <translation>Als Shell-Exporte &amp;kopieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy export NAME=&apos;value&apos; lines that a shell can source</source>
        <translation>Zeilen export NAME=&apos;Wert&apos; kopieren, die eine Shell einlesen kann</translation>
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
        <translation>Anwendungs-&amp;ID:</translation>
    </message>
    <message>
        <location line="+84"/>
        <source>The environment is shown once the spec has no problems.</source>
        <translation>Die Umgebung wird gezeigt, sobald die Spezifikation keine Probleme mehr hat.</translation>
    </message>
</context>
<context>
    <name>spindle::gui::FirstRunDialog</name>
    <message>
        <location filename="../app/src/settings/firstrundialog.cpp" line="+17"/>
        <source>Welcome to Spindle</source>
        <translation>Willkommen bei Spindle</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Spindle runs training jobs on a Hadoop YARN cluster. Which cluster should it use?

To try it on this machine, start the local YARN: a real ResourceManager, two NodeManagers (one labelled gpu) and HDFS, in one process. Or choose the Hadoop configuration directory of your cluster.</source>
        <translation>Spindle führt Trainingsjobs auf einem Hadoop-YARN-Cluster aus. Welchen Cluster soll es verwenden?

Um es auf diesem Rechner auszuprobieren, starten Sie das lokale YARN: ein echter ResourceManager, zwei NodeManager (einer mit dem Label gpu) und HDFS in einem Prozess. Oder wählen Sie das Hadoop-Konfigurationsverzeichnis Ihres Clusters.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Start the &amp;local YARN</source>
        <translation>&amp;Lokales YARN starten</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Choose a configuration directory…</source>
        <translation>Konfigurationsverzeichnis &amp;wählen…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Not now</source>
        <translation>&amp;Nicht jetzt</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Output of spindle local up</source>
        <translation>Ausgabe von spindle local up</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Starting the local YARN; the first start builds it and takes a few minutes…</source>
        <translation>Das lokale YARN startet; der erste Start baut es und dauert einige Minuten…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Hadoop configuration directory</source>
        <translation>Hadoop-Konfigurationsverzeichnis</translation>
    </message>
</context>
<context>
    <name>spindle::gui::JobDesignerWidget</name>
    <message>
        <location filename="../app/src/designer/jobdesignerwidget.cpp" line="+71"/>
        <source>Pages of the job</source>
        <translation>Seiten des Jobs</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Add task type</source>
        <translation>Task-Typ &amp;hinzufügen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Add chief, worker, ps, evaluator, tensorboard or a task type of your own</source>
        <translation>chief, worker, ps, evaluator, tensorboard oder einen eigenen Task-Typ hinzufügen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;move</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove the selected task type from the job</source>
        <translation>Den gewählten Task-Typ aus dem Job entfernen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Pages:</source>
        <translation>&amp;Seiten:</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Application</source>
        <translation>Anwendung</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Normalized YAML</source>
        <translation>Normalisiertes YAML</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Problems</source>
        <translation>Probleme</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;YAML</source>
        <translation>&amp;YAML</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E&amp;nvironment</source>
        <translation>&amp;Umgebung</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+257"/>
        <source>Pro&amp;blems</source>
        <translation>Pro&amp;bleme</translation>
    </message>
    <message>
        <location line="-254"/>
        <source>Will it fit now</source>
        <translation>Passt es jetzt</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Check &amp;again</source>
        <translation>&amp;Erneut prüfen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask the cluster for its nodes and queues again</source>
        <translation>Den Cluster erneut nach seinen Knoten und Warteschlangen fragen</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>F&amp;it now</source>
        <translation>Passt es jet&amp;zt</translation>
    </message>
    <message>
        <location line="+73"/>
        <source>Opened %1</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Unsaved changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The job spec has changes that are not saved. Save them first?</source>
        <translation>Die Jobspezifikation hat ungespeicherte Änderungen. Zuerst speichern?</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Open job spec</source>
        <translation>Jobspezifikation öffnen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Job specs (*.yaml *.yml *.json);;All files (*)</source>
        <translation>Jobspezifikationen (*.yaml *.yml *.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cannot open the job spec</source>
        <translation>Die Jobspezifikation kann nicht geöffnet werden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 cannot be opened in the designer:</source>
        <translation>%1 kann im Designer nicht geöffnet werden:</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Save a spec with problems?</source>
        <translation>Spezifikation mit Problemen speichern?</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>The spec has %n problem(s). Save it as typed? spindle will refuse it until they are fixed.</source>
        <translation>
            <numerusform>Die Spezifikation hat %n Problem. So speichern, wie sie ist? spindle lehnt sie ab, bis es behoben ist.</numerusform>
            <numerusform>Die Spezifikation hat %n Probleme. So speichern, wie sie ist? spindle lehnt sie ab, bis sie behoben sind.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot save the job spec</source>
        <translation>Die Jobspezifikation kann nicht gespeichert werden</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Save job spec</source>
        <translation>Jobspezifikation speichern</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>YAML job specs (*.yaml *.yml)</source>
        <translation>YAML-Jobspezifikationen (*.yaml *.yml)</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>Valid. This is the spec as spindle reads it.</source>
        <translation>Gültig. So liest spindle die Spezifikation.</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Core accepts the spec, but the cluster would refuse it: %n problem(s).</source>
        <translation>
            <numerusform>Der Kern akzeptiert die Spezifikation, aber der Cluster würde sie ablehnen: %n Problem.</numerusform>
            <numerusform>Der Kern akzeptiert die Spezifikation, aber der Cluster würde sie ablehnen: %n Probleme.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n problem(s); showing the last valid spec.</source>
        <translation>
            <numerusform>%n Problem; die letzte gültige Spezifikation wird gezeigt.</numerusform>
            <numerusform>%n Probleme; die letzte gültige Spezifikation wird gezeigt.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Pro&amp;blems (%1)</source>
        <translation>Pro&amp;bleme (%1)</translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>%n problem(s) on this page</source>
        <translation>
            <numerusform>%n Problem auf dieser Seite</numerusform>
            <numerusform>%n Probleme auf dieser Seite</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Connect to a cluster to see whether the job fits now.</source>
        <translation>Verbinden Sie sich mit einem Cluster, um zu sehen, ob der Job jetzt passt.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Fix the spec&apos;s problems to see whether it fits.</source>
        <translation>Beheben Sie die Probleme der Spezifikation, um zu sehen, ob sie passt.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Fits now, as of %1.</source>
        <translation>Passt jetzt, Stand %1.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Waits for room, as of %1.</source>
        <translation>Wartet auf Platz, Stand %1.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Never fits as it stands, as of %1.</source>
        <translation>Passt so nie, Stand %1.</translation>
    </message>
    <message>
        <location line="+127"/>
        <source>Remove task type</source>
        <translation>Task-Typ entfernen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Remove “%1” and its settings from the job?</source>
        <translation>„%1“ und seine Einstellungen aus dem Job entfernen?</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Custom task type…</source>
        <translation>&amp;Eigener Task-Typ…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Custom task type</source>
        <translation>Eigener Task-Typ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name of the task type (lower-case letters, digits and _):</source>
        <translation>Name des Task-Typs (Kleinbuchstaben, Ziffern und _):</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The job already has the task type “%1”.</source>
        <translation>Der Job hat den Task-Typ „%1“ bereits.</translation>
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
        <translation>Zustand:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queue:</source>
        <translation>Warteschlange:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>User:</source>
        <translation>Benutzer:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Submitted:</source>
        <translation>Eingereicht:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Duration:</source>
        <translation>Dauer:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tracking URL:</source>
        <translation>Tracking-URL:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Diagnostics:</source>
        <translation>Diagnose:</translation>
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
        <translation>Versuch</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Exit code</source>
        <translation>Exit-Code</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Finished</source>
        <translation>Beendet</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Container</source>
        <translation>Container</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Attempts</source>
        <translation>&amp;Versuche</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Events</source>
        <translation>&amp;Ereignisse</translation>
    </message>
    <message>
        <location line="+36"/>
        <location line="+9"/>
        <source>The history cannot be read: %1</source>
        <translation>Der Verlauf kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>This machine&apos;s history has no job %1.</source>
        <translation>Der Verlauf dieses Rechners kennt keinen Job %1.</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>job</source>
        <translation>Job</translation>
    </message>
</context>
<context>
    <name>spindle::gui::JobView</name>
    <message>
        <location filename="../app/src/jobview/jobview.cpp" line="+126"/>
        <source>TensorBoard is shown here, through Spindle&apos;s local proxy, while the job&apos;s tensorboard task runs.</source>
        <translation>TensorBoard erscheint hier über Spindles lokalen Proxy, solange der tensorboard-Task des Jobs läuft.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Containers</source>
        <translation>Container</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Logs</source>
        <translation>Protokolle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Metrics</source>
        <translation>Metriken</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Resources</source>
        <translation>Ressourcen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TensorBoard</source>
        <translation>TensorBoard</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every task&apos;s container, live</source>
        <translation>Der Container jedes Tasks, live</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A task&apos;s stdout and stderr</source>
        <translation>stdout und stderr eines Tasks</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Training scalars from the job&apos;s TensorFlow event files</source>
        <translation>Trainingswerte aus den TensorFlow-Ereignisdateien des Jobs</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Memory and CPU of the containers over time</source>
        <translation>Speicher und CPU der Container im Zeitverlauf</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The job&apos;s TensorBoard</source>
        <translation>Das TensorBoard des Jobs</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>%1 was killed.</source>
        <translation>%1 wurde beendet.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The job could not be killed: %1</source>
        <translation>Der Job konnte nicht beendet werden: %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Kill…</source>
        <translation>&amp;Beenden…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kill the job: every container of it stops</source>
        <translation>Den Job beenden: jeder seiner Container hält an</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Resubmit…</source>
        <translation>&amp;Erneut einreichen…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Submit the same spec again as a new job</source>
        <translation>Dieselbe Spezifikation als neuen Job erneut einreichen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open &amp;spec</source>
        <translation>&amp;Spezifikation öffnen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show the job&apos;s spec as it was submitted</source>
        <translation>Die Spezifikation des Jobs zeigen, wie sie eingereicht wurde</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy application ID</source>
        <translation>Anwendungs-ID &amp;kopieren</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy %1 to the clipboard</source>
        <translation>%1 in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open &amp;YARN UI</source>
        <translation>&amp;YARN-Oberfläche öffnen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open the job&apos;s page in the web browser (its tracking URL)</source>
        <translation>Die Seite des Jobs im Webbrowser öffnen (seine Tracking-URL)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open &amp;MLflow run</source>
        <translation>&amp;MLflow-Lauf öffnen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open the job&apos;s run in MLflow&apos;s web UI</source>
        <translation>Den Lauf des Jobs in der Weboberfläche von MLflow öffnen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Unknown</source>
        <translation>Unbekannt</translation>
    </message>
    <message>
        <location line="+95"/>
        <source>The job %1.</source>
        <translation>Der Job: %1.</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Kill job</source>
        <translation>Job beenden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kill %1 (%2)? Every container of it stops, and the job ends as killed.</source>
        <translation>%1 (%2) beenden? Jeder seiner Container hält an, und der Job endet als beendet.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Killing %1…</source>
        <translation>%1 wird beendet…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The history keeps no spec of this job.</source>
        <translation>Der Verlauf enthält keine Spezifikation dieses Jobs.</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Resubmit</source>
        <translation>Erneut einreichen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The job cannot be submitted again as it was:
%1</source>
        <translation>Der Job kann nicht so erneut eingereicht werden, wie er war:
%1</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Spec of %1</source>
        <translation>Spezifikation von %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Open in &amp;designer</source>
        <translation>Im &amp;Designer öffnen</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Copied %1</source>
        <translation>%1 kopiert</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>TensorBoard cannot be shown: %1</source>
        <translation>TensorBoard kann nicht gezeigt werden: %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>TensorBoard of this job is served at &lt;a href=&quot;%1&quot;&gt;%1&lt;/a&gt;.</source>
        <translation>Das TensorBoard dieses Jobs ist unter &lt;a href=&quot;%1&quot;&gt;%1&lt;/a&gt; erreichbar.</translation>
    </message>
</context>
<context>
    <name>spindle::gui::JobsModel</name>
    <message>
        <location filename="../app/src/jobs/jobsmodel.cpp" line="+51"/>
        <location line="+72"/>
        <source>Submitted</source>
        <translation>Eingereicht</translation>
    </message>
    <message>
        <location line="-71"/>
        <source>Waiting</source>
        <translation>Wartet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Succeeded</source>
        <translation>Erfolgreich</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Killed</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>Application ID</source>
        <translation>Anwendungs-ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
</context>
<context>
    <name>spindle::gui::JobsWidget</name>
    <message>
        <location filename="../app/src/jobs/jobswidget.cpp" line="+28"/>
        <source>Search id, name, user or queue (Ctrl+F)</source>
        <translation>ID, Name, Benutzer oder Warteschlange suchen (Strg+F)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Search:</source>
        <translation>&amp;Suchen:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>All jobs</source>
        <translation>Alle Jobs</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running and waiting</source>
        <translation>Laufend und wartend</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Succeeded</source>
        <translation>Erfolgreich</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed or killed</source>
        <translation>Fehlgeschlagen oder abgebrochen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;how:</source>
        <translation>&amp;Zeigen:</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Jobs</source>
        <translation>Jobs</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Open job</source>
        <translation>Job ö&amp;ffnen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy application ID</source>
        <translation>Anwendungs-ID &amp;kopieren</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Compa&amp;re selected jobs</source>
        <translation>Ausgewählte Jobs &amp;vergleichen</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No jobs yet. Design one and submit it, or submit one with spindle submit: it shows up here.</source>
        <translation>Noch keine Jobs. Entwerfen Sie einen und reichen Sie ihn ein, oder reichen Sie einen mit spindle submit ein: er erscheint hier.</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>The history cannot be read: %1</source>
        <translation>Der Verlauf kann nicht gelesen werden: %1</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n job(s) shown</source>
        <translation>
            <numerusform>%n Job angezeigt</numerusform>
            <numerusform>%n Jobs angezeigt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n not finished</source>
        <translation>
            <numerusform>%n nicht beendet</numerusform>
            <numerusform>%n nicht beendet</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>history: %1</source>
        <translation>Verlauf: %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not brought up to date: %1</source>
        <translation>Nicht auf dem neuesten Stand: %1</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Copied %1</source>
        <translation>%1 kopiert</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Select two jobs or more to compare them (Ctrl or Shift and a click).</source>
        <translation>Wählen Sie zwei oder mehr Jobs, um sie zu vergleichen (Strg oder Umschalt und ein Klick).</translation>
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
        <translation>Wert</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name in the container</source>
        <translation>Name im Container</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Add variable</source>
        <translation>Variable hinzufügen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Add row</source>
        <translation>Zeile hinzufügen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add an environment variable (Insert)</source>
        <translation>Eine Umgebungsvariable hinzufügen (Einfg)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Add a row (Insert)</source>
        <translation>Eine Zeile hinzufügen (Einfg)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove the selected rows (Delete)</source>
        <translation>Die gewählten Zeilen entfernen (Entf)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Choose archives…</source>
        <translation>Archive wählen…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Choose files…</source>
        <translation>Dateien wählen…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pick local files to ship to every container</source>
        <translation>Lokale Dateien wählen, die an jeden Container geschickt werden</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>Archives to ship</source>
        <translation>Zu verschickende Archive</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Archives (*.tar.gz *.tgz *.tar *.zip *.jar)</source>
        <translation>Archive (*.tar.gz *.tgz *.tar *.zip *.jar)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Files to ship</source>
        <translation>Zu verschickende Dateien</translation>
    </message>
</context>
<context>
    <name>spindle::gui::LocalYarn</name>
    <message>
        <location filename="../app/src/settings/localyarn.cpp" line="+20"/>
        <source>spindle local up ended with exit code %1; its output says why.</source>
        <translation>spindle local up endete mit Exit-Code %1; seine Ausgabe sagt, warum.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The local YARN started, but spindle local env names no configuration.</source>
        <translation>Das lokale YARN ist gestartet, aber spindle local env nennt keine Konfiguration.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 could not be started.</source>
        <translation>%1 konnte nicht gestartet werden.</translation>
    </message>
</context>
<context>
    <name>spindle::gui::LogViewer</name>
    <message>
        <location filename="../app/src/jobview/logviewer.cpp" line="+32"/>
        <source>&amp;Follow</source>
        <translation>&amp;Verfolgen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask for new output every two seconds</source>
        <translation>Alle zwei Sekunden nach neuer Ausgabe fragen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Reload</source>
        <translation>&amp;Neu laden</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Choose a task whose container has started.</source>
        <translation>Wählen Sie einen Task, dessen Container gestartet ist.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Task:</source>
        <translation>&amp;Task:</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>%1: complete, from the logs kept after the job</source>
        <translation>%1: vollständig, aus den nach dem Job aufbewahrten Logs</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 @ %2: live, may grow</source>
        <translation>%1 @ %2: laufend, kann noch wachsen</translation>
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
        <translation>Spezifikation gültig</translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <source>Spec: %n problem(s)</source>
        <translation>
            <numerusform>Spezifikation: %n Problem</numerusform>
            <numerusform>Spezifikation: %n Probleme</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>Cluster %1: %n queue(s)</source>
        <translation>
            <numerusform>Cluster %1: %n Warteschlange</numerusform>
            <numerusform>Cluster %1: %n Warteschlangen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n node label(s)</source>
        <translation>
            <numerusform>%n Knoten-Label</numerusform>
            <numerusform>%n Knoten-Labels</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Largest container: %1 MiB, %2 vcores, %3 GPUs</source>
        <translation>Größter Container: %1 MiB, %2 vcores, %3 GPUs</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Connected to %1</source>
        <translation>Verbunden mit %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No cluster</source>
        <translation>Kein Cluster</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;New job spec</source>
        <translation>&amp;Neue Jobspezifikation</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Open job spec…</source>
        <translation>Jobspezifikation ö&amp;ffnen…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save &amp;as…</source>
        <translation>Speichern &amp;unter…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Se&amp;ttings…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <location line="-66"/>
        <location line="+69"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location line="-107"/>
        <source>Sweeps</source>
        <translation>Suchläufe</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>&amp;Show Spindle</source>
        <translation>Spindle &amp;anzeigen</translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>Spindle: %n job(s) running</source>
        <translation>
            <numerusform>Spindle: %n Job läuft</numerusform>
            <numerusform>Spindle: %n Jobs laufen</numerusform>
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
        <translation>&amp;Einreichen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Submit the job of the designer to the cluster</source>
        <translation>Den Job des Designers beim Cluster einreichen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open selected job</source>
        <translation>Gewählten Job ö&amp;ffnen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Copy application ID</source>
        <translation>Anwendungs-ID &amp;kopieren</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compa&amp;re selected jobs</source>
        <translation>Ausgewählte Jobs &amp;vergleichen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One chart per training scalar with a series per job, and the spec keys that differ</source>
        <translation>Ein Diagramm je Trainingsskalar mit einer Reihe je Job, und die Schlüssel der Spezifikation, die sich unterscheiden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>C&amp;lose job tab</source>
        <translation>Job-Tab sch&amp;ließen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
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
        <translation>S&amp;uchläufe</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Find job</source>
        <translation>Job &amp;finden</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Refresh jobs</source>
        <translation>Jobs &amp;aktualisieren</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Dar&amp;k palette</source>
        <translation>&amp;Dunkle Farben</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Cluster</source>
        <translation>&amp;Cluster</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Reload cluster information</source>
        <translation>Cluster-Informationen &amp;neu laden</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About Spindle</source>
        <translation>&amp;Über Spindle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>About Spindle</source>
        <translation>Über Spindle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Spindle %1&lt;/b&gt;&lt;p&gt;Distributed TensorFlow, PyTorch or any command on Hadoop YARN: design a job, submit it, and follow it.&lt;/p&gt;</source>
        <translation>&lt;b&gt;Spindle %1&lt;/b&gt;&lt;p&gt;Verteiltes TensorFlow, PyTorch oder ein beliebiger Befehl auf Hadoop YARN: einen Job entwerfen, einreichen und verfolgen.&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Compare (%1)</source>
        <translation>Vergleich (%1)</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>The spec has problems; fix them before submitting (see Problems).</source>
        <translation>Die Spezifikation hat Probleme; beheben Sie sie vor dem Einreichen (siehe Probleme).</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Connecting…</source>
        <translation>Verbinde…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>new job spec</source>
        <translation>neue Jobspezifikation</translation>
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
        <translation>auf jedem Knoten unter %1 installiert; es wird nichts mitgeschickt</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 in %2 files</source>
        <translation>%1 in %2 Dateien</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no cluster to ask whether it holds it</source>
        <translation>kein Cluster, der gefragt werden könnte, ob er sie hat</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the Spindle server packs and ships it from its own machine at submit</source>
        <translation>der Spindle-Server packt und überträgt sie beim Übermitteln von seiner eigenen Maschine</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>no cluster is set up to ask whether it holds it</source>
        <translation>kein Cluster eingerichtet, der gefragt werden könnte, ob er sie hat</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>could not ask the cluster whether it holds it (%1)</source>
        <translation>der Cluster konnte nicht gefragt werden, ob er sie hat (%1)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the cluster holds it as %1; a submit uploads nothing</source>
        <translation>der Cluster hat sie als %1; ein Einreichen lädt nichts hoch</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the cluster does not hold it yet; the first submit packs and uploads it as %1</source>
        <translation>der Cluster hat sie noch nicht; das erste Einreichen packt sie und lädt sie als %1 hoch</translation>
    </message>
</context>
<context>
    <name>spindle::gui::ScalarChartView</name>
    <message>
        <location filename="../app/src/jobview/scalarchartview.cpp" line="+11"/>
        <location line="+36"/>
        <source>No training scalars yet: they appear as the job writes TensorFlow event files to its output.</source>
        <translation>Noch keine Trainingswerte: sie erscheinen, sobald der Job TensorFlow-Ereignisdateien in seine Ausgabe schreibt.</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
</context>
<context>
    <name>spindle::gui::SeriesChartView</name>
    <message>
        <location filename="../app/src/jobview/serieschartview.cpp" line="+55"/>
        <source>Show:</source>
        <translation>Anzeigen:</translation>
    </message>
</context>
<context>
    <name>spindle::gui::SettingsDialog</name>
    <message>
        <location filename="../app/src/settings/settingsdialog.cpp" line="+40"/>
        <source>there is no such file</source>
        <translation>die Datei gibt es nicht</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is a directory</source>
        <translation>es ist ein Verzeichnis</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>empty: HADOOP_CONF_DIR of the environment</source>
        <translation>leer: HADOOP_CONF_DIR der Umgebung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use the &amp;local YARN</source>
        <translation>Das &amp;lokale YARN verwenden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The configuration of the single-machine YARN that spindle local up starts</source>
        <translation>Die Konfiguration des Einzelrechner-YARN, das spindle local up startet</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Hadoop &amp;configuration:</source>
        <translation>Hadoop-&amp;Konfiguration:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>empty: the ticket from kinit</source>
        <translation>leer: das Ticket von kinit</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the keytab file of the principal</source>
        <translation>die Keytab-Datei des Prinzipals</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>B&amp;rowse…</source>
        <translation>Du&amp;rchsuchen…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Kerberos login</source>
        <translation>Kerberos-Anmeldung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Principal:</source>
        <translation>&amp;Prinzipal:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Keytab:</source>
        <translation>&amp;Keytab-Datei:</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>With a principal and its keytab, Spindle gets its own tickets and leaves the ticket cache of kinit alone.</source>
        <translation>Mit einem Prinzipal und seiner Keytab holt Spindle eigene Tickets und lässt den Ticket-Cache von kinit unberührt.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Connect through a Spindle &amp;server</source>
        <translation>Über einen Spindle-Server &amp;verbinden</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the address spindle serve printed, with its ?token=</source>
        <translation>die Adresse, die spindle serve ausgab, mit ihrem ?token=</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Without a token the app signs in with your Kerberos ticket, when the server takes Kerberos logins (spindle serve --keytab).</source>
        <translation>Ohne Token meldet sich die App mit Ihrem Kerberos-Ticket an, sofern der Server Kerberos-Anmeldungen annimmt (spindle serve --keytab).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>https only: its certificate.pem; empty: the system&apos;s CAs</source>
        <translation>nur bei https: seine certificate.pem; leer: die Zertifizierungsstellen des Systems</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Bro&amp;wse…</source>
        <translation>Durchsuc&amp;hen…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Spindle server</source>
        <translation>Spindle-Server</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Address:</source>
        <translation>Adr&amp;esse:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>C&amp;ertificate:</source>
        <translation>&amp;Zertifikat:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>When the cluster is reached only from a gateway node: run spindle serve there, open an SSH tunnel (ssh -L PORT:127.0.0.1:PORT gateway) and paste the address it printed. Every view then asks that server instead of the cluster, and the Hadoop configuration above is not used.</source>
        <translation>Wenn der Cluster nur von einem Gateway-Knoten aus erreichbar ist: dort spindle serve starten, einen SSH-Tunnel öffnen (ssh -L PORT:127.0.0.1:PORT gateway) und die ausgegebene Adresse hier einfügen. Jede Ansicht fragt dann diesen Server statt des Clusters, und die Hadoop-Konfiguration oben wird nicht verwendet.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>empty: MLFLOW_TRACKING_URI of the environment</source>
        <translation>leer: MLFLOW_TRACKING_URI der Umgebung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Experiment tracking</source>
        <translation>Experiment-Tracking</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;MLflow server:</source>
        <translation>&amp;MLflow-Server:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Jobs whose spec names no MLflow server are recorded as runs there.</source>
        <translation>Jobs, deren Spezifikation keinen MLflow-Server nennt, werden dort als Läufe festgehalten.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notify me when my &amp;jobs end</source>
        <translation>Benachrichtigen, wenn meine &amp;Jobs enden</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep running in the &amp;tray when the window is closed</source>
        <translation>Im &amp;Infobereich weiterlaufen, wenn das Fenster geschlossen wird</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Notifications</source>
        <translation>Benachrichtigungen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Dark palette</source>
        <translation>&amp;Dunkle Farben</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>System language</source>
        <translation>Systemsprache</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Appearance</source>
        <translation>Darstellung</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Language:</source>
        <translation>&amp;Sprache:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A new language shows after a restart.</source>
        <translation>Eine neue Sprache erscheint nach einem Neustart.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;OK</source>
        <translation>&amp;OK</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Cancel</source>
        <translation>&amp;Abbrechen</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Hadoop configuration directory</source>
        <translation>Hadoop-Konfigurationsverzeichnis</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>The Spindle server&apos;s certificate</source>
        <translation>Das Zertifikat des Spindle-Servers</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PEM certificates (*.pem *.crt);;All files (*)</source>
        <translation>PEM-Zertifikate (*.pem *.crt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Keytab file</source>
        <translation>Keytab-Datei</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keytab files (*.keytab);;All files (*)</source>
        <translation>Keytab-Dateien (*.keytab);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>%1 cannot be read: %2; choose the certificate.pem that spindle serve keeps in its state directory&apos;s serve/</source>
        <translation>%1 kann nicht gelesen werden: %2; die certificate.pem wählen, die spindle serve im Unterverzeichnis serve/ seines Zustandsverzeichnisses ablegt</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Not used while the app connects through a Spindle server (below).</source>
        <translation>Nicht verwendet, solange die App über einen Spindle-Server (unten) verbindet.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No configuration: HADOOP_CONF_DIR is not set. Choose a directory or use the local YARN.</source>
        <translation>Keine Konfiguration: HADOOP_CONF_DIR ist nicht gesetzt. Wählen Sie ein Verzeichnis oder verwenden Sie das lokale YARN.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 has no yarn-site.xml.</source>
        <translation>%1 enthält keine yarn-site.xml.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reads %1</source>
        <translation>Liest %1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>give the principal the keytab was made for (such as alice@EXAMPLE.COM), or clear the keytab to use the ticket from kinit</source>
        <translation>geben Sie den Prinzipal an, für den die Keytab erstellt wurde (etwa alice@EXAMPLE.COM), oder leeren Sie die Keytab, um das Ticket von kinit zu verwenden</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>choose the keytab file of %1, or clear the principal to use the ticket from kinit</source>
        <translation>wählen Sie die Keytab-Datei von %1, oder leeren Sie den Prinzipal, um das Ticket von kinit zu verwenden</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>give the full path of the keytab file</source>
        <translation>geben Sie den vollständigen Pfad der Keytab-Datei an</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 cannot be read: %2; choose the keytab file `kadmin` or your administrator gave you</source>
        <translation>%1 kann nicht gelesen werden: %2; wählen Sie die Keytab-Datei, die `kadmin` oder Ihre Administration erstellt hat</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>give the http:// or https:// address of an MLflow tracking server (such as http://mlflow.example.com:5000), or leave it empty</source>
        <translation>geben Sie die http://- oder https://-Adresse eines MLflow-Tracking-Servers an (etwa http://mlflow.example.com:5000), oder lassen Sie das Feld leer</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Local YARN</source>
        <translation>Lokales YARN</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The local YARN does not run. Start it with spindle local up (or from the first-run dialog), then choose it here.</source>
        <translation>Das lokale YARN läuft nicht. Starten Sie es mit spindle local up (oder im Dialog beim ersten Start) und wählen Sie es dann hier.</translation>
    </message>
</context>
<context>
    <name>spindle::gui::SubmitDialog</name>
    <message>
        <location filename="../app/src/submit/submitdialog.cpp" line="+24"/>
        <source>Submit %1</source>
        <translation>%1 einreichen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ready to submit to %1.</source>
        <translation>Bereit zum Einreichen bei %1.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>the cluster</source>
        <translation>dem Cluster</translation>
    </message>
    <message>
        <location line="+15"/>
        <location line="+10"/>
        <location line="+2"/>
        <source>waiting</source>
        <translation>wartet</translation>
    </message>
    <message>
        <location line="-8"/>
        <location line="+4"/>
        <source>%v of %m</source>
        <translation>%v von %m</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Environment packed:</source>
        <translation>Umgebung gepackt:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Environment uploaded:</source>
        <translation>Umgebung hochgeladen:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Files staged:</source>
        <translation>Dateien bereitgestellt:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Containers allocated:</source>
        <translation>Container zugeteilt:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tasks registered:</source>
        <translation>Tasks registriert:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Submit log</source>
        <translation>Protokoll des Einreichens</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Open job</source>
        <translation>Job ö&amp;ffnen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Close</source>
        <translation>&amp;Schließen</translation>
    </message>
    <message>
        <location line="+20"/>
        <location line="+20"/>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>unchanged since it was packed</source>
        <translation>unverändert seit dem Packen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the cluster holds %1 already</source>
        <translation>der Cluster hat %1 bereits</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Submitted %1; waiting for YARN.</source>
        <translation>%1 eingereicht; warte auf YARN.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>submitted %1 (files in %2)</source>
        <translation>%1 eingereicht (Dateien in %2)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 is %2.</source>
        <translation>%1 ist %2.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>job</source>
        <translation>Job</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 succeeded.</source>
        <translation>%1 war erfolgreich.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 ended %2.</source>
        <translation>%1 endete mit %2.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Submitting %1…</source>
        <translation>%1 wird eingereicht…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Lost track of %1; it may still run.</source>
        <translation>%1 aus den Augen verloren; der Job läuft womöglich noch.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The cluster refused the job&apos;s settings.</source>
        <translation>Der Cluster hat die Einstellungen des Jobs abgelehnt.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The job could not be submitted.</source>
        <translation>Der Job konnte nicht eingereicht werden.</translation>
    </message>
</context>
<context>
    <name>spindle::gui::SweepsView</name>
    <message>
        <location filename="../app/src/sweeps/sweepsview.cpp" line="+170"/>
        <source>Sweep</source>
        <translation>Suchlauf</translation>
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
        <translation>Zustand</translation>
    </message>
    <message>
        <location line="-106"/>
        <source>Trials ended</source>
        <translation>Beendete Versuche</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+106"/>
        <source>Best</source>
        <translation>Bester Wert</translation>
    </message>
    <message>
        <location line="-105"/>
        <source>Compare ticked trials</source>
        <translation>Angehakte Versuche vergleichen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Opens the comparison view for the trials ticked in the first column</source>
        <translation>Öffnet den Vergleich für die in der ersten Spalte angehakten Versuche</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+164"/>
        <source>Stop trial</source>
        <translation>Versuch stoppen</translation>
    </message>
    <message>
        <location line="-163"/>
        <source>Ends the selected trial as stopped by the sweep; its checkpoints and scalars stay</source>
        <translation>Beendet den gewählten Versuch als vom Sweep gestoppt; seine Checkpoints und Skalare bleiben</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+162"/>
        <source>Kill trial</source>
        <translation>Versuch abbrechen</translation>
    </message>
    <message>
        <location line="-161"/>
        <location line="+170"/>
        <source>Kill sweep</source>
        <translation>Sweep abbrechen</translation>
    </message>
    <message>
        <location line="-169"/>
        <source>Stops the sweep&apos;s controller and every trial still running</source>
        <translation>Hält den Controller des Sweeps und jeden noch laufenden Versuch an</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open MLflow run</source>
        <translation>MLflow-Lauf öffnen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sweep&apos;s run in MLflow&apos;s web UI, with a child run for each trial</source>
        <translation>Der Lauf des Sweeps in der Weboberfläche von MLflow, mit einem Unterlauf je Versuch</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sweeps of this machine&apos;s history</source>
        <translation>Sweeps im Verlauf dieses Rechners</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>The sweeps could not be read: %1</source>
        <translation>Die Sweeps ließen sich nicht lesen: %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No sweeps: none was submitted from here (spindle sweep submit starts one)</source>
        <translation>Keine Sweeps: von hier wurde keiner gestartet (spindle sweep submit startet einen)</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n sweep(s)</source>
        <translation>
            <numerusform>%n Sweep</numerusform>
            <numerusform>%n Sweeps</numerusform>
        </translation>
    </message>
    <message>
        <location line="+14"/>
        <source>trial %1: %2 %3</source>
        <translation>Versuch %1: %2 %3</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 (%2): %3. Metric: %4 (%5).</source>
        <translation>%1 (%2): %3. Metrik: %4 (%5).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>maximize</source>
        <translation>maximieren</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>minimize</source>
        <translation>minimieren</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Best: trial %1, %2 at step %3.</source>
        <translation>Bester: Versuch %1, %2 bei Schritt %3.</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Trial</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Application</source>
        <translation>Anwendung</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>At step</source>
        <translation>Bei Schritt</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Why</source>
        <translation>Grund</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Tick to compare; double-click to open the trial&apos;s job</source>
        <translation>Zum Vergleichen anhaken; Doppelklick öffnet den Job des Versuchs</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>trial %1</source>
        <translation>Versuch %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Stop trial %1? It ends as stopped by the sweep; its checkpoints and scalars stay.</source>
        <translation>Versuch %1 stoppen? Er endet als vom Sweep gestoppt; seine Checkpoints und Skalare bleiben.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kill trial %1? It ends as killed.</source>
        <translation>Versuch %1 abbrechen? Er endet als abgebrochen.</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Sweeps</source>
        <translation>Suchläufe</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>Kill %1? Its controller and every running trial stop.</source>
        <translation>%1 abbrechen? Sein Controller und jeder laufende Versuch halten an.</translation>
    </message>
</context>
<context>
    <name>spindle::gui::TaskTypePage</name>
    <message>
        <location filename="../app/src/designer/tasktypepage.cpp" line="+22"/>
        <source>Coordinates training and writes checkpoints. Its success ends the job.</source>
        <translation>Koordiniert das Training und schreibt Checkpoints. Sein Erfolg beendet den Job.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Computes the training steps. Without a chief, worker 0 leads and the job succeeds once every worker has.</source>
        <translation>Berechnet die Trainingsschritte. Ohne chief leitet worker 0, und der Job ist erfolgreich, sobald es jeder Worker ist.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Holds the model&apos;s variables for ParameterServerStrategy. A service: stopped when the job ends.</source>
        <translation>Hält die Variablen des Modells für ParameterServerStrategy. Ein Dienst: wird beendet, wenn der Job endet.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Scores checkpoints as they appear. Outside the training cluster; may finish after the chief.</source>
        <translation>Bewertet Checkpoints, sobald sie erscheinen. Außerhalb des Trainingsclusters; darf nach dem chief fertig werden.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Serves TensorBoard over the job&apos;s output directory; with no command it runs TensorBoard itself.</source>
        <translation>Stellt TensorBoard über dem Ausgabeverzeichnis des Jobs bereit; ohne Befehl startet es TensorBoard selbst.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A task type of your own. It sees the cluster&apos;s addresses but is not part of TensorFlow&apos;s training cluster.</source>
        <translation>Ein eigener Task-Typ. Er sieht die Adressen des Clusters, gehört aber nicht zum Trainingscluster von TensorFlow.</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>e.g. 2 GiB, 512 MiB or 2048</source>
        <translation>z. B. 2 GiB, 512 MiB oder 2048</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bare numbers are MiB; units are binary (KiB, MiB, GiB, TiB)</source>
        <translation>Reine Zahlen sind MiB; Einheiten sind binär (KiB, MiB, GiB, TiB)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>yarn.io/gpu per container</source>
        <translation>yarn.io/gpu je Container</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Copies of the command in each container, each a rank of PyTorch&apos;s group (torchrun&apos;s --nproc-per-node)</source>
        <translation>Kopien des Befehls in jedem Container, jede ein Rang der PyTorch-Gruppe (--nproc-per-node von torchrun)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>any node without an exclusive label</source>
        <translation>jeder Knoten ohne exklusives Label</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>empty: run TensorBoard on the output directory</source>
        <translation>leer: TensorBoard über dem Ausgabeverzeichnis starten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>e.g. python train.py</source>
        <translation>z. B. python train.py</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run by /bin/sh in the container&apos;s working directory, with the task&apos;s environment</source>
        <translation>Wird von /bin/sh im Arbeitsverzeichnis des Containers mit der Umgebung des Tasks ausgeführt</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>How often a failed task is started again before it counts as failed</source>
        <translation>Wie oft ein fehlgeschlagener Task neu gestartet wird, bevor er als fehlgeschlagen gilt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tracked: the job waits for it</source>
        <translation>Verfolgt: der Job wartet auf ihn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Service: stopped when the job ends</source>
        <translation>Dienst: wird beendet, wenn der Job endet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Its failure fails the &amp;job</source>
        <translation>Sein Fehlschlag lässt den &amp;Job fehlschlagen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Containers</source>
        <translation>Container</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Instances:</source>
        <translation>&amp;Instanzen:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Memory:</source>
        <translation>&amp;Speicher:</translation>
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
        <translation>&amp;Prozesse (PyTorch):</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Node &amp;label:</source>
        <translation>Knoten-&amp;Label:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>What it runs</source>
        <translation>Was er ausführt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Command:</source>
        <translation>&amp;Befehl:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Environment:</source>
        <translation>&amp;Umgebung:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Max &amp;restarts:</source>
        <translation>Max. &amp;Neustarts:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>R&amp;ole:</source>
        <translation>&amp;Rolle:</translation>
    </message>
    <message>
        <location line="+74"/>
        <location line="+1"/>
        <location line="+1"/>
        <source>at most %1</source>
        <translation>höchstens %1</translation>
    </message>
</context>
<context>
    <name>spindle::gui::TensorBoardTab</name>
    <message>
        <location filename="../app/src/jobview/tensorboardtab.cpp" line="+26"/>
        <source>Reload TensorBoard</source>
        <translation>TensorBoard neu laden</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open TensorBoard in the web browser</source>
        <translation>TensorBoard im Webbrowser öffnen</translation>
    </message>
</context>
<context>
    <name>spindle::gui::UsageChartView</name>
    <message>
        <location filename="../app/src/jobview/usagechartview.cpp" line="+11"/>
        <location line="+72"/>
        <source>No container use yet: executors report it while their tasks run.</source>
        <translation>Noch keine Container-Auslastung: die Executors melden sie, während ihre Tasks laufen.</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU use</source>
        <translation>CPU-Auslastung</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Resident memory (MiB)</source>
        <translation>Residenter Speicher (MiB)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU (cores)</source>
        <translation>CPU (Kerne)</translation>
    </message>
</context>
</TS>
