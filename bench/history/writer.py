"""Fast row writers for the history generator: PostgreSQL COPY in a background thread (psycopg 3),
or plain INSERTs through Django's connection (SQLite and small runs).

A generator hands over rows as tuples of plain values in the order of a table's `columns`;
times are whole seconds since the epoch (UTC). The columns a generator does not name get their
model field's default, so a field added to a model later (with a default) does not break it.
"""

import json
import queue
import threading
from datetime import UTC, date, datetime, timedelta

from django.db import connection
from django.db.models import NOT_PROVIDED

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# "HH:MM:SS" for every second of a day, so a timestamp costs two look-ups, not a strftime.
_HMS = [f"{h:02d}:{m:02d}:{s:02d}" for h in range(24) for m in range(60) for s in range(60)]


class _DayTexts(dict):
    """epoch day -> "YYYY-MM-DD", filled on first use."""

    def __missing__(self, epoch_day: int) -> str:
        text = self[epoch_day] = (date(1970, 1, 1) + timedelta(days=epoch_day)).isoformat()
        return text


_DAYS = _DayTexts()


def day_text(epoch_day: int) -> str:
    return _DAYS[epoch_day]


def timestamp_text(seconds: int) -> str:
    """Epoch seconds -> "YYYY-MM-DD HH:MM:SS" (UTC)."""
    return f"{day_text(seconds // 86400)} {_HMS[seconds % 86400]}"


def iso(seconds: int | None) -> str | None:
    """Epoch seconds -> the ISO text the audit trail stores for a datetime."""
    if seconds is None:
        return None
    return f"{day_text(seconds // 86400)}T{_HMS[seconds % 86400]}+00:00"


_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _copy_text(value) -> str:
    """A Python value as PostgreSQL COPY text."""
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict | list):
        return json.dumps(value).translate(_COPY_ESCAPES)
    return str(value).translate(_COPY_ESCAPES)


class TableSpec:
    """What is written to one model's table: the columns a generator gives, with their kinds, and
    the defaults of the others. Kinds: int, str (escaped), safe (text known to need no escaping),
    ts (epoch seconds), bool, json (a JSON text), date."""

    def __init__(self, model, columns: list[tuple[str, str]]):
        self.model = model
        self.table = model._meta.db_table
        self.columns = [name for name, _kind in columns]
        self.kinds = [kind for _name, kind in columns]
        fields = {field.column: field for field in model._meta.concrete_fields}
        unknown = set(self.columns) - set(fields)
        if unknown:
            raise ValueError(f"{self.table} has no column {sorted(unknown)}")
        self.extra: list[tuple[str, object]] = []
        for column, field in fields.items():
            if column in self.columns:
                continue
            if field.has_default():
                value = field.get_default()
            elif field.null:
                value = None
            elif field.empty_strings_allowed and field.default is NOT_PROVIDED:
                value = ""
            else:
                raise ValueError(f"{self.table}.{column} has no default: the history generator must fill it")
            self.extra.append((column, value))
        self.all_columns = self.columns + [column for column, _value in self.extra]
        self._pg = None

    def pg_formatter(self):
        """A function row -> one COPY text line, generated once per table for speed."""
        if self._pg is None:
            parts = []
            for index, kind in enumerate(self.kinds):
                value = f"r[{index}]"
                if kind in ("int!", "safe!"):  # never None: straight in
                    parts.append(f"{{{value}}}")
                elif kind == "ts!":
                    parts.append(f"{{D[{value} // 86400]}} {{H[{value} % 86400]}}+00")
                elif kind == "int":
                    parts.append(f"{{N({value})}}")
                elif kind == "ts":
                    parts.append(f"{{T({value})}}")
                elif kind == "bool":
                    parts.append(f"{{B({value})}}")
                elif kind in ("safe", "json", "date"):
                    parts.append(f"{{N({value})}}")
                else:
                    parts.append(f"{{E({value})}}")
            suffix = "".join("\t" + _copy_text(value) for _column, value in self.extra)
            source = "lambda r: f'" + "\\t".join(parts) + "{S}\\n'"
            self._pg = eval(  # noqa: S307 - built above from our own column kinds only
                source,
                {
                    "N": lambda v: "\\N" if v is None else v,
                    "T": lambda v: "\\N" if v is None else timestamp_text(v) + "+00",
                    "B": lambda v: "\\N" if v is None else ("t" if v else "f"),
                    "E": lambda v: "\\N" if v is None else str(v).translate(_COPY_ESCAPES),
                    "S": suffix,
                    "D": _DAYS,
                    "H": _HMS,
                },
            )
        return self._pg

    def python_row(self, row: tuple) -> tuple:
        """A row as the values Django's SQLite adapter takes."""
        values = []
        for value, kind in zip(row, self.kinds, strict=True):
            if value is None:
                values.append(None)
            elif kind in ("ts", "ts!"):
                values.append(timestamp_text(value))
            elif kind == "bool":
                values.append(1 if value else 0)
            elif kind == "date":
                values.append(value.isoformat())
            else:
                values.append(value)
        for _column, value in self.extra:
            if isinstance(value, bool):
                values.append(1 if value else 0)
            elif isinstance(value, dict | list):
                values.append(json.dumps(value))
            else:
                values.append(value)
        return tuple(values)


class Writer:
    """Buffers rows per table and sends them in batches."""

    BATCH_ROWS = 20_000

    def __init__(self):
        self.buffers: dict[str, list] = {}
        self.specs: dict[str, TableSpec] = {}
        self.counts: dict[str, int] = {}

    def add(self, spec: TableSpec, row: tuple) -> None:
        buffer = self.buffers.get(spec.table)
        if buffer is None:
            buffer = self.buffers[spec.table] = []
            self.specs[spec.table] = spec
        buffer.append(row)
        if len(buffer) >= self.BATCH_ROWS:
            self.flush(spec.table)

    def flush(self, table: str | None = None) -> None:
        for name in [table] if table else list(self.buffers):
            rows = self.buffers.get(name)
            if rows:
                self.counts[name] = self.counts.get(name, 0) + len(rows)
                self.send(self.specs[name], rows)
                self.buffers[name] = []

    def send(self, spec: TableSpec, rows: list[tuple]) -> None:  # pragma: no cover - see subclasses
        raise NotImplementedError

    def close(self) -> None:
        self.flush()


class InsertWriter(Writer):
    """INSERT through Django's connection, inside the caller's transaction (SQLite, small runs)."""

    BATCH_ROWS = 2_000

    def send(self, spec: TableSpec, rows: list[tuple]) -> None:
        quote = connection.ops.quote_name
        sql = "INSERT INTO {} ({}) VALUES ({})".format(  # noqa: S608 - names from model meta, values are params
            quote(spec.table),
            ", ".join(quote(c) for c in spec.all_columns),
            ", ".join(["%s"] * len(spec.all_columns)),
        )
        with connection.cursor() as cursor:
            cursor.executemany(sql, [spec.python_row(row) for row in rows])


class CopyWriter(Writer):
    """COPY ... FROM STDIN on its own psycopg connection, in a thread, so that PostgreSQL loads one
    batch while Python generates the next. Everything is one transaction: committed by close(),
    rolled back by abort(). `setup` runs first on that connection (SET, DROP INDEX ...)."""

    BATCH_ROWS = 50_000

    def __init__(self, *, dsn: str, setup: list[str]):
        super().__init__()
        import psycopg

        self.conn = psycopg.connect(dsn, autocommit=False)
        with self.conn.cursor() as cursor:
            for statement in setup:
                cursor.execute(statement)
        self.queue: queue.Queue = queue.Queue(maxsize=6)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="history-copy", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            if item is None:
                return
            if self.error is not None:
                continue
            sql, text = item
            try:
                with self.conn.cursor() as cursor, cursor.copy(sql) as copy:
                    copy.write(text)
            except BaseException as error:  # reported to the generating thread
                self.error = error

    def send(self, spec: TableSpec, rows: list[tuple]) -> None:
        if self.error is not None:
            raise self.error
        line = spec.pg_formatter()
        columns = ", ".join(f'"{column}"' for column in spec.all_columns)
        sql = f'COPY "{spec.table}" ({columns}) FROM STDIN'
        self.queue.put((sql, "".join(map(line, rows))))

    def execute(self, statements: list[tuple[str, list | None]]) -> None:
        """Run (sql, params) statements on the loading connection, after every batch sent so far."""
        self.flush()
        self.queue.put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error
        with self.conn.cursor() as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)
        self.thread = threading.Thread(target=self._run, name="history-copy", daemon=True)
        self.thread.start()

    def close(self, *, finish: list[tuple[str, list | None]] = ()) -> None:
        self.execute(list(finish))
        self.queue.put(None)
        self.thread.join()
        self.conn.commit()
        self.conn.close()

    def abort(self) -> None:
        self.queue.put(None)
        self.thread.join(timeout=60)
        self.conn.rollback()
        self.conn.close()
