// A dependency that is not rewritten receives events from a channel it
// gets inside a struct, and calls the program's callback for each: what
// the program wrote before sending is ordered before the callback's read.
// Correct: go run -race is silent. Once review19 made a literal given to
// code that is not rewritten a thread of its own (HBRoot), goanomaly run
// -hb reported recs[i] (main.go:27 against main.go:30) on every run: the
// channel reached the dependency inside a struct, was not escaped, and
// the callback's thread followed the sends only through G (the relay
// docs/runtime.md lists under "Not covered"). EscapedIn now escapes the
// channels an argument holds in its fields (instrument/rewrite/hb.go,
// hbEscapeArgs; rt/hb_escape_in.go).
package main

import (
	"fmt"

	"example.com/watch"
)

type rec struct{ vals []int }

func main() {
	events := make(chan int)
	recs := make([]*rec, 10)
	sum := 0
	done := watch.Watch(watch.Config{Events: events}, func(i int) {
		sum += recs[i].vals[0]
	})
	for i := range recs {
		recs[i] = &rec{vals: []int{i}}
		events <- i
	}
	close(events)
	<-done
	fmt.Println(sum)
}
