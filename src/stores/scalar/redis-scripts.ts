/**
 * The Lua scripts of the Redis scalar store. Every write runs as one script, so Redis applies it atomically:
 * two replicas evicting at once never remove the same excess twice, and the sorted sets never disagree with
 * the records. ARGV[1] of every script is the key prefix ("<namespace>:"). Over 300 lines: one script per
 * write, kept together because they all read and write the key layout below.
 *
 * Keys under the prefix:
 *   seq               INCR counter: record ids, in insertion order
 *   r:<id>            hash of a record: q a t k p (question, answer, type, key hash, partition), c l h (create_on,
 *                     last_access, hit_count), e (embedding bytes), d (deps JSON), x (deleted)
 *   live              zset id -> id: the live records (ZCARD is the count, so it cannot drift)
 *   created           zset create_on -> id (expiry)
 *   emb               zset id -> id: live records with an embedding (index catch-up)
 *   k:<key hash>      zset id -> id: live records with that key (the newest answers findByKey)
 *   policies          set of eviction orders in use, e.g. "l+i+" (last_access asc, id asc)
 *   ev:<order>        zset, all scores 0, members sorting in that order: fixed-width encoded columns + "|" + id
 *   deleted           set of ids marked deleted and not purged yet
 *   s:<id>, sess:<s>  sets linking records and sessions; sessions: set of session names
 *   reports           list of report rows (JSON), trimmed to the newest maxReports
 */

const PRELUDE = `
local P = ARGV[1]
local MAXV = 9000000000000000
local OFFSET = 4500000000000000
local function num(v) return string.format('%.17g', v) end
-- Fixed-width digits sort as text in numeric order; "-" flips the order. Values are clamped to +-4.5e15.
local function enc(v, dir)
  local x = math.floor(tonumber(v) or 0) + OFFSET
  if x < 0 then x = 0 elseif x > MAXV then x = MAXV end
  if dir == '-' then x = MAXV - x end
  return string.format('%016.0f', x)
end
local function member(spec, c, l, h, id)
  local parts = {}
  for i = 1, #spec, 2 do
    local col = spec:sub(i, i)
    local v = id
    if col == 'c' then v = c elseif col == 'l' then v = l elseif col == 'h' then v = h end
    parts[#parts + 1] = enc(v, spec:sub(i + 1, i + 1))
  end
  return table.concat(parts) .. '|' .. id
end
local function policies() return redis.call('SMEMBERS', P .. 'policies') end
-- Marks a live record deleted and takes it out of every index; false when it was not live. A record whose hash
-- Redis already expired leaves stale index members behind, skipped and removed when they are next read.
local function kill(id, specs)
  if not redis.call('ZSCORE', P .. 'live', id) then return false end
  redis.call('ZREM', P .. 'live', id)
  redis.call('ZREM', P .. 'created', id)
  redis.call('ZREM', P .. 'emb', id)
  local r = P .. 'r:' .. id
  local f = redis.call('HMGET', r, 'k', 'c', 'l', 'h')
  if f[1] then
    redis.call('ZREM', P .. 'k:' .. f[1], id)
    for _, spec in ipairs(specs) do redis.call('ZREM', P .. 'ev:' .. spec, member(spec, f[2], f[3], f[4], id)) end
    redis.call('HSET', r, 'x', '1')
  end
  redis.call('SADD', P .. 'deleted', id)
  return true
end
local function link(id, session)
  redis.call('SADD', P .. 's:' .. id, session)
  redis.call('SADD', P .. 'sess:' .. session, id)
  redis.call('SADD', P .. 'sessions', session)
end
-- Up to n live members of zset z with score > after, whose record hash still exists: {id, value, ...}.
local function page(z, after, n, read)
  local out, cursor = {}, '(' .. after
  while #out < 2 * n do
    local ids = redis.call('ZRANGEBYSCORE', z, cursor, '+inf', 'LIMIT', 0, n)
    if #ids == 0 then break end
    for _, id in ipairs(ids) do
      local value = read(P .. 'r:' .. id)
      if value and #out < 2 * n then
        out[#out + 1] = tonumber(id)
        out[#out + 1] = value
      end
    end
    cursor = '(' .. ids[#ids]
  end
  return out
end
`;

/** One script: its source with the prelude. */
function script(body: string): string {
  return `${PRELUDE}\n${body}`;
}

export const REDIS_SCRIPTS = {
  /** ARGV: prefix, ttlMs (0 none), n, then per record: q a t k p c flags e d s (flags has e, d, s when present). */
  insert: script(`
local ttl = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
local specs = policies()
local ids = {}
for i = 0, n - 1 do
  local b = 4 + i * 10
  local id = redis.call('INCR', P .. 'seq')
  local c, flags = ARGV[b + 5], ARGV[b + 6]
  local r = P .. 'r:' .. id
  redis.call('HSET', r, 'q', ARGV[b], 'a', ARGV[b + 1], 't', ARGV[b + 2], 'k', ARGV[b + 3], 'p', ARGV[b + 4], 'c', c, 'l', c, 'h', '0')
  if string.find(flags, 'e', 1, true) then
    redis.call('HSET', r, 'e', ARGV[b + 7])
    redis.call('ZADD', P .. 'emb', id, id)
  end
  if string.find(flags, 'd', 1, true) then redis.call('HSET', r, 'd', ARGV[b + 8]) end
  if ttl > 0 then redis.call('PEXPIREAT', r, num(math.floor(tonumber(c) + ttl))) end
  redis.call('ZADD', P .. 'live', id, id)
  redis.call('ZADD', P .. 'created', c, id)
  redis.call('ZADD', P .. 'k:' .. ARGV[b + 3], id, id)
  for _, spec in ipairs(specs) do redis.call('ZADD', P .. 'ev:' .. spec, 0, member(spec, c, c, 0, id)) end
  if string.find(flags, 's', 1, true) then link(id, ARGV[b + 9]) end
  ids[#ids + 1] = id
end
return ids`),

  /** ARGV: prefix, id. The record's hash as a flat list (empty when gone). */
  get: script(`return redis.call('HGETALL', P .. 'r:' .. ARGV[2])`),

  /** ARGV: prefix, key hash. {id, hash} of the newest live record with that key, or nil. */
  findByKey: script(`
local k = P .. 'k:' .. ARGV[2]
while true do
  local top = redis.call('ZREVRANGE', k, 0, 0)
  if #top == 0 then return false end
  local id = top[1]
  if redis.call('ZSCORE', P .. 'live', id) then
    local h = redis.call('HGETALL', P .. 'r:' .. id)
    if #h > 0 then return {tonumber(id), h} end
  end
  redis.call('ZREM', k, id)
end`),

  /** ARGV: prefix, n, then per hit: id at count. */
  touch: script(`
local n = tonumber(ARGV[2])
local specs = policies()
for i = 0, n - 1 do
  local id, at, count = ARGV[3 + i * 3], tonumber(ARGV[4 + i * 3]), tonumber(ARGV[5 + i * 3])
  local r = P .. 'r:' .. id
  local f = redis.call('HMGET', r, 'c', 'l', 'h')
  if f[1] then
    local l = tonumber(f[2])
    if at > l then l = at end
    local h = tonumber(f[3]) + count
    if redis.call('ZSCORE', P .. 'live', id) then
      for _, spec in ipairs(specs) do
        local idx = P .. 'ev:' .. spec
        redis.call('ZREM', idx, member(spec, f[1], f[2], f[3], id))
        redis.call('ZADD', idx, 0, member(spec, f[1], l, h, id))
      end
    end
    redis.call('HSET', r, 'l', num(l), 'h', num(h))
  end
end
return n`),

  /** ARGV: prefix. */
  count: script(`return redis.call('ZCARD', P .. 'live')`),

  /**
   * ARGV: prefix, order, maxSize, cleanSize. Registers the order on first use (building its index from the live
   * records), then evicts cleanSize records in that order when more than maxSize are live.
   */
  evict: script(`
local spec, max, clean = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local idx = P .. 'ev:' .. spec
if redis.call('SADD', P .. 'policies', spec) == 1 then
  for _, id in ipairs(redis.call('ZRANGE', P .. 'live', 0, -1)) do
    local f = redis.call('HMGET', P .. 'r:' .. id, 'c', 'l', 'h')
    if f[1] then redis.call('ZADD', idx, 0, member(spec, f[1], f[2], f[3], id)) end
  end
end
if redis.call('ZCARD', P .. 'live') <= max then return {} end
local specs = policies()
local out = {}
while #out < clean do
  local batch = redis.call('ZRANGE', idx, 0, clean - #out - 1)
  if #batch == 0 then break end
  for _, m in ipairs(batch) do
    redis.call('ZREM', idx, m)
    local id = tonumber(string.match(m, '|(%d+)$'))
    if kill(id, specs) then out[#out + 1] = id end
  end
end
return out`),

  /** ARGV: prefix, createdBefore. */
  expire: script(`
local specs = policies()
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'created', '-inf', '(' .. ARGV[2])) do
  if kill(id, specs) then out[#out + 1] = tonumber(id) end
end
return out`),

  /** ARGV: prefix, ids... */
  markDeleted: script(`
local specs = policies()
for i = 2, #ARGV do kill(ARGV[i], specs) end
return 0`),

  /** ARGV: prefix. */
  clear: script(`
local specs = policies()
for _, id in ipairs(redis.call('ZRANGE', P .. 'live', 0, -1)) do kill(id, specs) end
redis.call('DEL', P .. 'reports')
return 0`),

  /**
   * ARGV: prefix. Removes deleted records' hashes, session links and report rows; returns how many. The report
   * list (at most maxReports rows) is rewritten without the rows naming a removed record.
   */
  purgeDeleted: script(`
local ids = redis.call('SMEMBERS', P .. 'deleted')
if #ids > 0 then
  local removed = {}
  for _, id in ipairs(ids) do removed[tonumber(id)] = true end
  local kept = {}
  for _, row in ipairs(redis.call('LRANGE', P .. 'reports', 0, -1)) do
    if not removed[cjson.decode(row).cacheQuestionId] then kept[#kept + 1] = row end
  end
  redis.call('DEL', P .. 'reports')
  for _, row in ipairs(kept) do redis.call('RPUSH', P .. 'reports', row) end
end
for _, id in ipairs(ids) do
  local sk = P .. 's:' .. id
  for _, s in ipairs(redis.call('SMEMBERS', sk)) do
    local k = P .. 'sess:' .. s
    redis.call('SREM', k, id)
    if redis.call('SCARD', k) == 0 then redis.call('SREM', P .. 'sessions', s) end
  end
  redis.call('DEL', sk, P .. 'r:' .. id)
end
redis.call('DEL', P .. 'deleted')
return #ids`),

  /** ARGV: prefix. The deps JSON of every record marked deleted and not purged yet. */
  deletedDeps: script(`
local out = {}
for _, id in ipairs(redis.call('SMEMBERS', P .. 'deleted')) do
  local d = redis.call('HGET', P .. 'r:' .. id, 'd')
  if d then out[#out + 1] = d end
end
return out`),

  /** ARGV: prefix, afterId, limit. {id, embedding, ...}. */
  embeddingsAfter: script(`
return page(P .. 'emb', ARGV[2], tonumber(ARGV[3]), function(r) return redis.call('HGET', r, 'e') end)`),

  /** ARGV: prefix, afterId, limit. {id, hash, ...} of live records. */
  page: script(`
return page(P .. 'live', ARGV[2], tonumber(ARGV[3]), function(r)
  local h = redis.call('HGETALL', r)
  if #h == 0 then return false end
  return h
end)`),

  /** ARGV: prefix, id, session. */
  addSession: script(`link(ARGV[2], ARGV[3]) return 0`),

  /** ARGV: prefix, id. */
  sessionsOf: script(`return redis.call('SMEMBERS', P .. 's:' .. ARGV[2])`),

  /** ARGV: prefix, and a session name or nothing. {session, {ids}, ...}. */
  listSessions: script(`
local names = redis.call('SMEMBERS', P .. 'sessions')
if #ARGV > 1 then names = {ARGV[2]} end
local out = {}
for _, s in ipairs(names) do
  out[#out + 1] = s
  out[#out + 1] = redis.call('SMEMBERS', P .. 'sess:' .. s)
end
return out`),

  /** ARGV: prefix, session. */
  deleteSession: script(`
local k = P .. 'sess:' .. ARGV[2]
local ids = redis.call('SMEMBERS', k)
for _, id in ipairs(ids) do redis.call('SREM', P .. 's:' .. id, ARGV[2]) end
redis.call('DEL', k)
redis.call('SREM', P .. 'sessions', ARGV[2])
return #ids`),

  /** ARGV: prefix, maxReports, rows (JSON)... */
  addReports: script(`
for i = 3, #ARGV do redis.call('RPUSH', P .. 'reports', ARGV[i]) end
redis.call('LTRIM', P .. 'reports', -tonumber(ARGV[2]), -1)
return 0`),

  /** ARGV: prefix. */
  countReports: script(`return redis.call('LLEN', P .. 'reports')`),

  /** ARGV: prefix, glob pattern of every key under it. */
  drop: script(`
local cursor, n = '0', 0
repeat
  local r = redis.call('SCAN', cursor, 'MATCH', ARGV[2], 'COUNT', 1000)
  cursor = r[1]
  for _, k in ipairs(r[2]) do
    redis.call('DEL', k)
    n = n + 1
  end
until cursor == '0'
return n`),
} as const;

export type RedisScriptName = keyof typeof REDIS_SCRIPTS;
