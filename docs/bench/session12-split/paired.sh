#!/bin/bash
# paired runs: old (b934935) and new binary, same task, back to back
S=/work/shared/bench/sv-comp15
for t in pthread-ext/08_rand_cas_true-unreach-call.c pthread-ext/48_ticket_lock_low_contention_vs_true-unreach-call.c pthread/fib_bench_longer_false-unreach-call.c pthread/fib_bench_longer_false-unreach-call.cil.c pthread/stack_longer_true-unreach-call.c pthread/stack_longest_true-unreach-call.c pthread-wmm/safe002_power.oepc_false-unreach-call.c pthread-wmm/safe032_pso.oepc_false-unreach-call.c pthread-wmm/mix010_tso.opt_false-unreach-call.c pthread-wmm/safe016_pso.oepc_true-unreach-call.c; do
  for mode in cegpv; do
    for b in old new; do
      bin=/tmp/cegpv-old; [ $b = new ] && bin=/work/main/bin/cegpv
      s=$(date +%s.%N)
      v=$(/usr/bin/time -f "%U+%S" -o /tmp/pair/t $bin verify --mode $mode --timeout 60s --unwind 5 $S/$t 2>/dev/null | grep -E "^(TRUE|FALSE|UNKNOWN)" | head -1)
      e=$(date +%s.%N)
      printf "%-70s %-5s %-3s %6.1fs wall %s cpu  %s\n" $t $mode $b $(echo "$e - $s" | bc) "$(cat /tmp/pair/t | tail -1)" "$v"
    done
  done
done
