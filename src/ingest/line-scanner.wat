;; The byte scan behind scan-lines.ts, in WebAssembly SIMD: 16 bytes a step, far cheaper than
;; V8's regex and string copies. It reports, in position order, every newline and
;; every place where DuckDB's lenient reader (yyjson with trailing commas and NaN/Infinity
;; allowed) could accept what RFC 8259 does not:
;;   a trailing comma   ,[ \t\r]*[\]}]
;;   NaN / Infinity     [:,[][ \t\r]*[-+]?(nan|inf), any case
;; and every line that holds "data" (quotes included) twice: a record naming its envelope's
;; data key twice keeps the first value only (duplicate-keys.ts judges the line).
;; Compiled by scripts/build-line-scanner.mjs into line-scanner-wasm.ts (a test keeps the two
;; in step).
;;
;; Entries are u32: a newline's offset from `base`, or a suspect's offset with the top bit set.
;; A step reads up to 16 bytes past `end`: the memory must extend that far (what is there does
;; not matter; every match is checked against `end`).
(module
  (memory (export "memory") 1)
  ;; Where the last call stopped: `end`, or earlier when the entry area was full.
  (global $stop (export "stop") (mut i32) (i32.const 0))
  ;; "data" seen so far on the current line; the caller zeroes it where a chunk starts.
  (global $dataSeen (export "dataSeen") (mut i32) (i32.const 0))

  ;; A quote and a 'd' at $p: is it "data" (its closing quote before `end`)?
  (func $isData (param $p i32) (param $end i32) (result i32)
    (if (i32.gt_u (i32.add (local.get $p) (i32.const 6)) (local.get $end)) (then (return (i32.const 0))))
    ;; "ata\"" as one little-endian u32: a=97 t=116 a=97 "=34
    (i32.eq (i32.load offset=2 align=1 (local.get $p)) (i32.const 0x22617461)))

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
    (local $k34 v128) (local $k100 v128)
    ;; the byte values the step compares with, in every lane
    (local.set $k10 (i8x16.splat (i32.const 10)))
    (local.set $k44 (i8x16.splat (i32.const 44)))
    (local.set $k125 (i8x16.splat (i32.const 125)))
    (local.set $k32 (i8x16.splat (i32.const 32)))
    (local.set $k110 (i8x16.splat (i32.const 110)))
    (local.set $k97 (i8x16.splat (i32.const 97)))
    (local.set $k105 (i8x16.splat (i32.const 105)))
    (local.set $k34 (i8x16.splat (i32.const 34)))
    (local.set $k100 (i8x16.splat (i32.const 100)))
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
              ;; a quote and a 'd': "data"'s first two bytes
              (v128.and (i8x16.eq (local.get $b0) (local.get $k34)) (i8x16.eq (local.get $b1) (local.get $k100)))))))
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
                (global.set $dataSeen (i32.const 0))
                (i32.store (local.get $o) (i32.sub (local.get $p) (local.get $base)))
                (local.set $o (i32.add (local.get $o) (i32.const 4))))
              (else
                (if (if (result i32) (i32.eq (local.get $c) (i32.const 44))
                      (then (call $trailingComma (local.get $p) (local.get $end)))
                      (else (if (result i32) (i32.eq (local.get $c) (i32.const 34))
                        ;; the second "data" of a line is a suspect, once
                        (then (if (result i32) (call $isData (local.get $p) (local.get $end))
                          (then
                            (global.set $dataSeen (i32.add (global.get $dataSeen) (i32.const 1)))
                            (i32.eq (global.get $dataSeen) (i32.const 2)))
                          (else (i32.const 0))))
                        (else (call $nanOrInf (local.get $p) (local.get $base) (local.get $end))))))
                  (then
                    (i32.store (local.get $o) (i32.or (i32.sub (local.get $p) (local.get $base)) (i32.const 0x80000000)))
                    (local.set $o (i32.add (local.get $o) (i32.const 4)))))))
            (br $eachBit)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $step)))
    (global.set $stop (i32.sub (select (local.get $end) (local.get $i) (i32.gt_u (local.get $i) (local.get $end))) (local.get $base)))
    (i32.shr_u (i32.sub (local.get $o) (local.get $out)) (i32.const 2))))
