// Calls of exported interface methods in an -hb build: the method a
// value's table holds decides, at run time, whether a release to the
// global clock precedes the call. job's Work is the program's own
// (rewritten: no release), its Add, Done and Wait are sync.WaitGroup's,
// promoted (code not rewritten: released and acquired as before), so the
// worker's write of n is ordered before main's read by Done and Wait
// through the interface. The interface's methods are declared out of the
// order of its method table (Add, Done, Wait, Work), so a wrong slot
// would take Wait for Work and report the read. Nothing here races.
package main

import (
	"fmt"
	"sync"
)

type job interface {
	Work(k int)
	Wait()
	Add(delta int)
	Done()
}

type group struct {
	*sync.WaitGroup
	n int
}

func (g *group) Work(k int) { g.n += k }

type shape interface{ Area() int }

type square struct{ side int }

func (s *square) Area() int { return s.side * s.side }

func main() {
	g := &group{WaitGroup: &sync.WaitGroup{}}
	var j job = g
	j.Add(1)
	go func() {
		j.Work(3)
		j.Done()
	}()
	j.Wait()
	fmt.Println(g.n)

	total := 0
	shapes := []shape{&square{2}, &square{3}}
	for _, s := range shapes {
		total += s.Area()
	}
	fmt.Println(total)
}
