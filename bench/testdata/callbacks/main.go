// Command callbacks is the kernel for the cost of calls through values
// outside constructs: a hot loop calls function values, method values and
// interface methods that a parallel helper could also run (so each gets
// the prologue of goanomaly's calls through values), and never enters a
// construct unless -parallel is set. Its goanomaly build pays, per call,
// the prologue's rt.Current with no goroutine attached. It prints a
// checksum.
//
// RACY VARIANT, for differential tests: with -parallel the callbacks also
// fold their results into the shared acc they read, a shared accumulator.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"sync"
)

type op interface{ apply(x uint64) uint64 }

type mul struct{ k uint64 }

func (m mul) apply(x uint64) uint64 { return x * m.k }

type add struct{ d uint64 }

func (a *add) apply(x uint64) uint64 { return x + a.d }

func xorshift(x uint64) uint64 {
	x ^= x << 13
	x ^= x >> 7
	return x ^ x<<17
}

// each runs f on 0..n-1 in goroutines: the construct the callbacks could
// run in (only with -parallel).
func each(n int, f func(int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { f(i) })
	}
	wg.Wait()
}

func main() {
	calls := flag.Int("n", 100_000_000, "calls through values")
	parallel := flag.Bool("parallel", false, "also run the callbacks in a construct once")
	flag.Parse()
	ops := []op{mul{6364136223846793005}, &add{1442695040888963407}}
	rot := func(x uint64) uint64 { return x<<1 | x>>63 }
	fs := []func(uint64) uint64{xorshift, rot, ops[0].apply, ops[1].apply}
	acc := uint64(88172645463325252)
	for i := range *calls {
		if i&1 == 0 {
			acc = ops[i>>1&1].apply(acc) // an interface method
		} else {
			acc = fs[i>>1&3](acc) // a function, a literal or a method value
		}
	}
	if *parallel {
		out := make([]uint64, 4)
		each(len(out), func(i int) { out[i] = fs[i](acc); acc += out[i] }) // planted race: the callbacks add into acc, which they all read
		acc ^= out[0] ^ out[1] ^ out[2] ^ out[3]
	}
	fmt.Printf("callbacks n=%d: %d\n", *calls, acc)
}
