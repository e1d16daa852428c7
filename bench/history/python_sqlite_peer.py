"""The peer of bench/history/run: the same points, the same table and key, the same batches,
written with Python's sqlite3 module (executemany, one transaction per batch, WAL)."""
import json
import sqlite3
import sys
import time

points, batch, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA synchronous=NORMAL")
db.execute("""CREATE TABLE metric_points (application_id TEXT NOT NULL, source TEXT NOT NULL, run TEXT NOT NULL,
    tag TEXT NOT NULL, step INTEGER NOT NULL, wall_time REAL NOT NULL, value REAL NOT NULL,
    PRIMARY KEY (application_id, tag, source, run, step, wall_time)) WITHOUT ROWID""")
tags = ["loss", "accuracy", "learning_rate", "memory_bytes"]
started = time.perf_counter()
written = 0
while written < points:
    rows = []
    while len(rows) < batch and written < points:
        rows.append(("application_1_0001", "tfevents", "train", tags[written % 4], written // 4, 1.7e9 + written,
                     1.0 / (written + 1)))
        written += 1
    db.execute("BEGIN IMMEDIATE")
    db.executemany("INSERT OR IGNORE INTO metric_points VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    db.execute("COMMIT")
seconds = time.perf_counter() - started
print(json.dumps({"points": points, "batch": batch, "seconds": seconds, "points_per_second": points / seconds}))
