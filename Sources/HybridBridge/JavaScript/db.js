// SPEC §7.3's db global: the app's SQLite database, through the host's db.* services (sync:
// SQLite answers at once, in the order scripts ask). Evaluated when first needed
// (data-globals.js), which hands over the prelude's `serviceError` so an E_SQL points at the
// calling line. Returns the global for data-globals.js to define, and `deliver`, which Swift
// calls through it (DataEntryPoint in EntryPoints.swift).
//
// Values cross as JSON: a BLOB travels as {"$bytes": [BYTE, …]} and is a Uint8Array here, an
// INTEGER past ±2^53 comes as a string rather than a rounded number.
(function (native, serviceError) {
  'use strict';

  const BYTES = '$bytes';
  function encode(value) {
    if (value instanceof Uint8Array) return { [BYTES]: Array.from(value) };
    if (value === undefined) return null;
    if (typeof value === 'boolean') return value ? 1 : 0;
    return value;
  }
  function encodeParams(params) {
    if (params === undefined || params === null) return null;
    if (Array.isArray(params)) {
      // Most rows hold only strings, numbers and null, which cross as they are: a batch of
      // 10,000 rows then makes no copies.
      for (let i = 0; i < params.length; i++) {
        const value = params[i];
        if (value === undefined || typeof value === 'boolean' || (value !== null && typeof value === 'object')) return params.map(encode);
      }
      return params;
    }
    if (typeof params === 'object') {
      const out = {};
      for (const key of Object.keys(params)) out[key] = encode(params[key]);
      return out;
    }
    throw new TypeError('db: params are an array (for ?) or an object (for :name)');
  }
  function decodeRow(row) {
    for (const key of Object.keys(row)) {
      const value = row[key];
      if (value !== null && typeof value === 'object' && Array.isArray(value[BYTES])) row[key] = Uint8Array.from(value[BYTES]);
    }
    return row;
  }
  const call = (service, message) => hybrid.callSync(service, message);

  // A quoted SQL identifier: a table or column name as written, whatever it holds.
  const ident = (name) => `"${String(name).replace(/"/g, '""')}"`;

  function table(name) {
    const quoted = ident(name);
    let keys = null;
    // The primary key's columns (rowid when the table declares none), asked once.
    const primaryKey = () => {
      if (keys !== null) return keys;
      const info = db.query(`PRAGMA table_info(${quoted})`);
      if (info.length === 0) throw serviceError(new Error(), 'E_SQL', `db.table(${JSON.stringify(String(name))}): no such table`);
      keys = info.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk).map((column) => column.name);
      if (keys.length === 0) keys = ['rowid'];
      return keys;
    };
    const where = (key) => {
      const columns = primaryKey();
      const values = columns.length === 1 && (key === null || typeof key !== 'object' || key instanceof Uint8Array)
        ? [key] : columns.map((column) => key[column]);
      return { sql: columns.map((column) => `${ident(column)} = ?`).join(' AND '), params: values };
    };
    return Object.freeze({
      find(options) {
        const o = options || {};
        let sql = `SELECT * FROM ${quoted}`;
        if (o.where !== undefined) sql += ` WHERE ${o.where}`;
        if (o.orderBy !== undefined) sql += ` ORDER BY ${o.orderBy}`;
        let params = o.params === undefined ? [] : o.params;
        if (o.limit !== undefined || o.offset !== undefined) {
          if (!Array.isArray(params)) {
            params = Object.assign({}, params, { hybrid_limit: o.limit === undefined ? -1 : o.limit, hybrid_offset: o.offset || 0 });
            sql += ' LIMIT :hybrid_limit OFFSET :hybrid_offset';
          } else {
            params = params.concat([o.limit === undefined ? -1 : o.limit, o.offset || 0]);
            sql += ' LIMIT ? OFFSET ?';
          }
        }
        return db.query(sql, params);
      },
      get(key) {
        const condition = where(key);
        const rows = db.query(`SELECT * FROM ${quoted} WHERE ${condition.sql} LIMIT 1`, condition.params);
        return rows.length === 0 ? null : rows[0];
      },
      insert(row) {
        const columns = Object.keys(row);
        if (columns.length === 0) return db.exec(`INSERT INTO ${quoted} DEFAULT VALUES`);
        return db.exec(`INSERT INTO ${quoted} (${columns.map(ident).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          columns.map((column) => row[column]));
      },
      upsert(row) {
        const columns = Object.keys(row);
        const keyColumns = primaryKey();
        const others = columns.filter((column) => !keyColumns.includes(column));
        const update = others.length === 0 ? 'NOTHING' : `UPDATE SET ${others.map((column) => `${ident(column)} = excluded.${ident(column)}`).join(', ')}`;
        return db.exec(`INSERT INTO ${quoted} (${columns.map(ident).join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) `
          + `ON CONFLICT (${keyColumns.map(ident).join(', ')}) DO ${update}`, columns.map((column) => row[column]));
      },
      update(key, changes) {
        const columns = Object.keys(changes);
        if (columns.length === 0) return { changes: 0, lastInsertRowId: 0 };
        const condition = where(key);
        return db.exec(`UPDATE ${quoted} SET ${columns.map((column) => `${ident(column)} = ?`).join(', ')} WHERE ${condition.sql}`,
          columns.map((column) => changes[column]).concat(condition.params));
      },
      remove(key) {
        const condition = where(key);
        return db.exec(`DELETE FROM ${quoted} WHERE ${condition.sql}`, condition.params);
      },
    });
  }

  // db.watch: listeners by the id the host's watch was started under.
  const listeners = new Map();
  let nextWatch = 1;
  function deliver(id, rows, error) {
    const fn = listeners.get(id);
    if (fn === undefined) return;
    if (error !== null && error !== undefined) {
      listeners.delete(id);
      const failure = new Error(`db.watch: ${error.message}`);
      failure.code = 'E_SQL';
      native.reportError({ error: failure });
      return;
    }
    fn(rows.map(decodeRow));
  }

  // db.handler: functions by table and operation. While there are any, every statement goes
  // through db.capture, which answers the rows it changed in the tables handled; the handlers
  // run on them inside the writing transaction (one the host left open when the statement ran
  // outside any), and a throw rolls it all back.
  const OPERATIONS = ['insert', 'update', 'delete'];
  const MAX_DEPTH = 16;
  const handlers = new Map();
  let handlerCount = 0;
  let depth = 0;
  const handlerKey = (table, op) => `${op} ${table}`;

  function runHandlers(changes) {
    for (const change of changes) {
      const fns = handlers.get(handlerKey(change.table, change.op));
      if (fns === undefined) continue;
      if (change.row !== null) decodeRow(change.row);
      if (change.previous !== null) decodeRow(change.previous);
      for (const fn of fns.slice()) {
        if (depth >= MAX_DEPTH) {
          throw serviceError(new Error(), 'E_SQL', `db.handler: handlers nested ${MAX_DEPTH} deep (does a handler write the rows it handles?)`);
        }
        depth++;
        try { fn(change, tx); } finally { depth--; }
      }
    }
  }

  // One statement: straight to its service, or, while handlers are there, with its changes.
  function statement(operation, message) {
    if (handlerCount === 0) return call(`db.${operation}`, message);
    const answer = call('db.capture', Object.assign({ operation }, message));
    const handled = () => {
      runHandlers(answer.changes);
      return answer.result;
    };
    return answer.leftOpen ? insideOpenTransaction(handled) : handled();
  }

  // Runs body inside the transaction just begun: committed when it returns, rolled back
  // (whole) when it throws, and the throw goes on.
  function insideOpenTransaction(body) {
    open = true;
    let result;
    try {
      result = body();
    } catch (error) {
      open = false;
      call('db.rollback', null);
      throw error;
    }
    open = false;
    call('db.commit', null);
    return result;
  }

  function handler(table, op, fn) {
    if (!OPERATIONS.includes(op)) throw new TypeError(`db.handler(table, op, fn): op is "insert", "update" or "delete", not ${JSON.stringify(op)}`);
    if (typeof fn !== 'function') throw new TypeError('db.handler(table, op, fn): fn must be a function');
    const key = handlerKey(String(table), op);
    let fns = handlers.get(key);
    if (fns === undefined) {
      call('db.handle', { table: String(table), op });
      fns = [];
      handlers.set(key, fns);
    }
    fns.push(fn);
    handlerCount++;
    let removed = false;
    return Object.freeze({
      remove() {
        if (removed) return;
        removed = true;
        fns.splice(fns.indexOf(fn), 1);
        handlerCount--;
        if (fns.length === 0) {
          handlers.delete(key);
          call('db.unhandle', { table: String(table), op });
        }
      },
    });
  }

  const db = {
    query(sql, params) { return statement('query', { sql: String(sql), params: encodeParams(params) }).map(decodeRow); },
    exec(sql, params) { return statement('exec', { sql: String(sql), params: encodeParams(params) }); },
    batch(sql, paramsList) {
      if (!Array.isArray(paramsList)) throw new TypeError('db.batch(sql, paramsList): paramsList must be an array');
      // The rows cross as one JSON text: the engine writes it natively and Swift parses it at
      // once, where converting 10,000 arrays value by value through the C API costs 8x more.
      return statement('batch', { sql: String(sql), paramsList: JSON.stringify(paramsList.map(encodeParams)) });
    },
    handler,
    table,
    // fn(tx) runs inside one transaction: committed when it returns, rolled back (whole) when it
    // throws, which db.transaction throws on. It must be synchronous: a transaction cannot stay
    // open across an await, where other code would run inside it.
    // fn(rows) now, then after each committed transaction that changed what the query reads
    // and changed its rows; never for a rolled-back one.
    watch(sql, params, fn) {
      if (typeof fn !== 'function') throw new TypeError('db.watch(sql, params, fn): fn must be a function');
      const id = nextWatch++;
      listeners.set(id, fn);
      try {
        call('db.watch', { id, sql: String(sql), params: encodeParams(params) });
      } catch (error) {
        listeners.delete(id);
        throw error;
      }
      return Object.freeze({ remove() { if (listeners.delete(id)) call('db.unwatch', { id }); } });
    },
    transaction(fn) {
      if (typeof fn !== 'function') throw new TypeError('db.transaction(fn): fn must be a function');
      if (open) throw new TypeError('db.transaction(fn): a transaction is open already; use its tx');
      call('db.begin', null);
      return insideOpenTransaction(() => {
        const result = fn(tx);
        if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
          throw new TypeError('db.transaction(fn): fn returned a promise; it must be synchronous (the transaction was rolled back)');
        }
        return result;
      });
    },
  };
  let open = false;
  const tx = Object.freeze({
    query(sql, params) { return db.query(sql, params); },
    exec(sql, params) { return db.exec(sql, params); },
  });
  return Object.freeze({ global: Object.freeze(db), deliver });
})
