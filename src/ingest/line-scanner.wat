;; The byte scan behind scan-lines.ts, in WebAssembly SIMD: 16 bytes a step, far cheaper than
;; V8's regex and string copies. It reports, in position order, every newline and
;; every place where DuckDB's lenient reader (yyjson with trailing commas and NaN/Infinity
;; allowed) could accept what RFC 8259 does not:
;;   a trailing comma   ,[ \t\r]*[\]}]
;;   NaN / Infinity     [:,[][ \t\r]*[-+]?(nan|inf), any case
;; and, for each of up to 8 keys set with `setKey`, the second place on a line where the key
;; stands quoted ("data"): a record naming an envelope key twice keeps the first value only
;; (duplicate-keys.ts judges the line).
;; Compiled by scripts/build-line-scanner.mjs into line-scanner-wasm.ts (a test keeps the two
;; in step).
;;
;; Entries are u32: a newline's offset from `base`, or a suspect's offset with the top bit set.
;; The keys live in the last 512 bytes of the first page (the caller's entries stop before them):
;; 8 slots of 32 bytes, [length of the quoted key][pad 3][its bytes 1-4 after the quote as u32]
;; [mask of those bytes][the quoted key, up to 20 bytes], then 8 one-byte counts for the line.
;; A step reads up to 16 bytes past `end`: the memory must extend that far (what is there does
;; not matter; every match is checked against `end`).
(module
  (memory (export "memory") 1)
  ;; Where the last call stopped: `end`, or earlier when the entry area was full.
  (global $stop (export "stop") (mut i32) (i32.const 0))
  ;; How many key slots are set.
  (global $keys (export "keys") (mut i32) (i32.const 0))
  (global $table i32 (i32.const 65024))
  (global $counts i32 (i32.const 65280))

  ;; The key slot `k` holds `bytes` bytes (the quoted key) written by the caller at its +12:
  ;; fills in the length, the prefix and its mask.
  (func (export "setKey") (param $k i32) (param $bytes i32)
    (local $slot i32) (local $n i32)
    (local.set $slot (i32.add (global.get $table) (i32.shl (local.get $k) (i32.const 5))))
    (i32.store8 (local.get $slot) (local.get $bytes))
    ;; bytes 1..4 of the quoted key (after its opening quote), as many as it has
    (local.set $n (select (i32.const 4) (i32.sub (local.get $bytes) (i32.const 1)) (i32.gt_u (local.get $bytes) (i32.const 5))))
    (i32.store offset=8 (local.get $slot)
      (i32.sub (i32.shl (i32.const 1) (i32.shl (local.get $n) (i32.const 3))) (i32.const 1)))
    (if (i32.eq (local.get $n) (i32.const 4))
      (then (i32.store offset=8 (local.get $slot) (i32.const -1))))
    (i32.store offset=4 (local.get $slot)
      (i32.and (i32.load offset=13 align=1 (local.get $slot)) (i32.load offset=8 (local.get $slot))))
    (if (i32.ge_u (local.get $k) (global.get $keys)) (then (global.set $keys (i32.add (local.get $k) (i32.const 1))))))

  ;; A quote at $p: is it one of the keys, quoted, for the second time on this line?
  (func $keyTwice (param $p i32) (param $end i32) (result i32)
    (local $w i32) (local $k i32) (local $slot i32) (local $len i32) (local $j i32) (local $count i32)
    (local.set $w (i32.load offset=1 align=1 (local.get $p)))
    (block $none
      (loop $each
        (br_if $none (i32.ge_u (local.get $k) (global.get $keys)))
        (local.set $slot (i32.add (global.get $table) (i32.shl (local.get $k) (i32.const 5))))
        (local.set $len (i32.load8_u (local.get $slot)))
        (if (i32.and
              (i32.eq (i32.and (local.get $w) (i32.load offset=8 (local.get $slot))) (i32.load offset=4 (local.get $slot)))
              (i32.le_u (i32.add (local.get $p) (local.get $len)) (local.get $end)))
          (then
            ;; the whole quoted key, byte by byte
            (local.set $j (i32.const 0))
            (block $differs
              (loop $byte
                (if (i32.ge_u (local.get $j) (local.get $len))
                  (then
                    (local.set $count (i32.add (i32.load8_u (i32.add (global.get $counts) (local.get $k))) (i32.const 1)))
                    (i32.store8 (i32.add (global.get $counts) (local.get $k)) (local.get $count))
                    (return (i32.eq (local.get $count) (i32.const 2)))))
                (br_if $differs (i32.ne
                  (i32.load8_u (i32.add (local.get $p) (local.get $j)))
                  (i32.load8_u offset=12 (i32.add (local.get $slot) (local.get $j)))))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $byte)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $each)))
    (i32.const 0))

  (func $isSpace (param $c i32) (result i32)
    (i32.or
      (i32.eq (local.get $c) (i32.const 32))
      (i32.or (i32.eq (local.get $c) (i32.const 9)) (i32.eq (local.get $c) (i32.const 13)))))

  ;; The byte at $p is a comma: is the next byte after spaces a closing bracket?
  (func $trailingComma (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (loop $next
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (if (i32.ge_u (local.get $p) (local.get $end)) (then (return (i32.const 0))))
      (local.set $c (i32.load8_u (local.get $p)))
      (br_if $next (call $isSpace (local.get $c))))
    (i32.or (i32.eq (local.get $c) (i32.const 125)) (i32.eq (local.get $c) (i32.const 93))))

  ;; A nan/inf token starts at $p: does it follow a value opener (: , [), past an optional
  ;; sign and then spaces?
  (func $afterOpener (param $p i32) (param $base i32) (result i32)
    (local $c i32)
    (if (i32.le_u (local.get $p) (local.get $base)) (then (return (i32.const 0))))
    (local.set $p (i32.sub (local.get $p) (i32.const 1)))
    (local.set $c (i32.load8_u (local.get $p)))
    (if (i32.or (i32.eq (local.get $c) (i32.const 45)) (i32.eq (local.get $c) (i32.const 43)))
      (then
        (if (i32.le_u (local.get $p) (local.get $base)) (then (return (i32.const 0))))
        (local.set $p (i32.sub (local.get $p) (i32.const 1)))
        (local.set $c (i32.load8_u (local.get $p)))))
    (block $done
      (loop $back
        (br_if $done (i32.eqz (call $isSpace (local.get $c))))
        (if (i32.le_u (local.get $p) (local.get $base)) (then (return (i32.const 0))))
        (local.set $p (i32.sub (local.get $p) (i32.const 1)))
        (local.set $c (i32.load8_u (local.get $p)))
        (br $back)))
    (i32.or
      (i32.eq (local.get $c) (i32.const 58))
      (i32.or (i32.eq (local.get $c) (i32.const 44)) (i32.eq (local.get $c) (i32.const 91)))))

  ;; Two letters at $p start "na" or "in" (any case): do they make a nan or inf value?
  (func $nanOrInf (param $p i32) (param $base i32) (param $end i32) (result i32)
    (local $third i32)
    (if (i32.gt_u (i32.add (local.get $p) (i32.const 3)) (local.get $end)) (then (return (i32.const 0))))
    (local.set $third (i32.or (i32.load8_u offset=2 (local.get $p)) (i32.const 32)))
    (if (i32.ne (local.get $third)
          (select (i32.const 110) (i32.const 102) (i32.eq (i32.or (i32.load8_u (local.get $p)) (i32.const 32)) (i32.const 110))))
      (then (return (i32.const 0))))
    (call $afterOpener (local.get $p) (local.get $base)))

  ;; Scans [start, end) of the bytes at `base`; writes entries from `out` up to `outEnd` and
  ;; returns how many it wrote. Sets `stop` to where it got to.
  (func (export "scan") (param $base i32) (param $start i32) (param $end i32) (param $out i32) (param $outEnd i32) (result i32)
    (local $i i32) (local $o i32) (local $bits i32) (local $p i32) (local $c i32)
    (local $b0 v128) (local $b1 v128) (local $l0 v128) (local $l1 v128)
    (local $k10 v128) (local $k44 v128) (local $k125 v128) (local $k32 v128) (local $k110 v128) (local $k97 v128) (local $k105 v128)
    (local $k34 v128) (local $firsts v128) (local $f0 v128) (local $f1 v128) (local $f2 v128) (local $f3 v128)
    (local $f4 v128) (local $f5 v128) (local $f6 v128) (local $f7 v128)
    ;; the byte values the step compares with, in every lane
    (local.set $k10 (i8x16.splat (i32.const 10)))
    (local.set $k44 (i8x16.splat (i32.const 44)))
    (local.set $k125 (i8x16.splat (i32.const 125)))
    (local.set $k32 (i8x16.splat (i32.const 32)))
    (local.set $k110 (i8x16.splat (i32.const 110)))
    (local.set $k97 (i8x16.splat (i32.const 97)))
    (local.set $k105 (i8x16.splat (i32.const 105)))
    (local.set $k34 (i8x16.splat (i32.const 34)))
    ;; each key's first letter (0 for an unset slot: no valid line has a NUL after a quote)
    (local.set $f0 (i8x16.splat (i32.load8_u offset=13 (i32.const 65024))))
    (local.set $f1 (i8x16.splat (i32.load8_u offset=45 (i32.const 65024))))
    (local.set $f2 (i8x16.splat (i32.load8_u offset=77 (i32.const 65024))))
    (local.set $f3 (i8x16.splat (i32.load8_u offset=109 (i32.const 65024))))
    (local.set $f4 (i8x16.splat (i32.load8_u offset=141 (i32.const 65024))))
    (local.set $f5 (i8x16.splat (i32.load8_u offset=173 (i32.const 65024))))
    (local.set $f6 (i8x16.splat (i32.load8_u offset=205 (i32.const 65024))))
    (local.set $f7 (i8x16.splat (i32.load8_u offset=237 (i32.const 65024))))
    (local.set $i (i32.add (local.get $base) (local.get $start)))
    (local.set $end (i32.add (local.get $base) (local.get $end)))
    (local.set $o (local.get $out))
    (block $exit
      (loop $step
        (br_if $exit (i32.ge_u (local.get $i) (local.get $end)))
        ;; room for a whole step's entries
        (br_if $exit (i32.gt_u (i32.add (local.get $o) (i32.const 64)) (local.get $outEnd)))
        (local.set $b0 (v128.load align=1 (local.get $i)))
        (local.set $b1 (v128.load offset=1 align=1 (local.get $i)))
        ;; bit 0x20 set: lower-case letters, and '}' for ']'
        (local.set $l0 (v128.or (local.get $b0) (local.get $k32)))
        (local.set $l1 (v128.or (local.get $b1) (local.get $k32)))
        (local.set $bits (i8x16.bitmask
          (v128.or
            (v128.or
              (i8x16.eq (local.get $b0) (local.get $k10))
              ;; a comma before a closer, or before a space, tab or CR (bytes up to 32 are
              ;; tried; the check sorts them out)
              (v128.and
                (i8x16.eq (local.get $b0) (local.get $k44))
                (v128.or (i8x16.le_u (local.get $b1) (local.get $k32)) (i8x16.eq (local.get $l1) (local.get $k125)))))
            (v128.or
              ;; "na" and "in": nan and inf's first two letters
              (v128.or
                (v128.and (i8x16.eq (local.get $l0) (local.get $k110)) (i8x16.eq (local.get $l1) (local.get $k97)))
                (v128.and (i8x16.eq (local.get $l0) (local.get $k105)) (i8x16.eq (local.get $l1) (local.get $k110))))
              ;; a quote and a key's first letter
              (v128.and (i8x16.eq (local.get $b0) (local.get $k34))
                (v128.or
                  (v128.or
                    (v128.or (i8x16.eq (local.get $b1) (local.get $f0)) (i8x16.eq (local.get $b1) (local.get $f1)))
                    (v128.or (i8x16.eq (local.get $b1) (local.get $f2)) (i8x16.eq (local.get $b1) (local.get $f3))))
                  (v128.or
                    (v128.or (i8x16.eq (local.get $b1) (local.get $f4)) (i8x16.eq (local.get $b1) (local.get $f5)))
                    (v128.or (i8x16.eq (local.get $b1) (local.get $f6)) (i8x16.eq (local.get $b1) (local.get $f7))))))))))
        ;; the last step: only positions before `end`
        (if (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $end))
          (then (local.set $bits (i32.and (local.get $bits)
            (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $end) (local.get $i))) (i32.const 1))))))
        (block $bitsDone
          (loop $eachBit
            (br_if $bitsDone (i32.eqz (local.get $bits)))
            (local.set $p (i32.add (local.get $i) (i32.ctz (local.get $bits))))
            (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
            (local.set $c (i32.load8_u (local.get $p)))
            (if (i32.eq (local.get $c) (i32.const 10))
              (then
                (i64.store (global.get $counts) (i64.const 0))
                (i32.store (local.get $o) (i32.sub (local.get $p) (local.get $base)))
                (local.set $o (i32.add (local.get $o) (i32.const 4))))
              (else
                (if (if (result i32) (i32.eq (local.get $c) (i32.const 44))
                      (then (call $trailingComma (local.get $p) (local.get $end)))
                      (else (if (result i32) (i32.eq (local.get $c) (i32.const 34))
                        ;; a key's second time on a line is a suspect, once
                        (then (call $keyTwice (local.get $p) (local.get $end)))
                        (else (call $nanOrInf (local.get $p) (local.get $base) (local.get $end))))))
                  (then
                    (i32.store (local.get $o) (i32.or (i32.sub (local.get $p) (local.get $base)) (i32.const 0x80000000)))
                    (local.set $o (i32.add (local.get $o) (i32.const 4)))))))
            (br $eachBit)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $step)))
    (global.set $stop (i32.sub (select (local.get $end) (local.get $i) (i32.gt_u (local.get $i) (local.get $end))) (local.get $base)))
    (i32.shr_u (i32.sub (local.get $o) (local.get $out)) (i32.const 2))))
