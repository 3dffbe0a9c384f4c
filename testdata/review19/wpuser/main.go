// A program using github.com/gammazero/workerpool: tasks submitted from
// main; with "racy" every task increments a shared counter without a lock
// (a real race: go run -race reports it at main.go:43), otherwise each
// writes its own slot and main reads them after StopWait (correct).
// goanomaly run -hb at 8f1699e never reported the racy variant (-race: 3
// runs of 3): the tasks run on the pool's goroutines, which are no
// threads, so the literal's HB() found none and every check was off (the
// build notes "function literal is given to (*WorkerPool).Submit, ... not
// checked"; -deps=all rewrites the pool and finds it). Each run of a
// callback given to code that is not rewritten is now a thread of its own
// (HBRoot/EndRoot in instrument/rewrite/hb.go, hbLit), which begins after
// G: the tasks' accesses are checked, and two tasks are found racing when
// neither ended before the other began (1 run of 5 here, tasks being
// short; testscript race_hb_review19_pooltasks makes them overlap).
package main

import (
	"fmt"
	"os"

	"github.com/gammazero/workerpool"
)

type out struct {
	vals []int
	sum  int
}

func main() {
	wp := workerpool.New(3)
	racy := len(os.Args) > 1 && os.Args[1] == "racy"
	counter := 0
	results := make([]*out, 20)
	for i := 0; i < 20; i++ {
		wp.Submit(func() {
			o := &out{vals: make([]int, 4)}
			for k := range o.vals {
				o.vals[k] = i * k
				o.sum += o.vals[k]
			}
			results[i] = o
			if racy {
				counter++
			}
		})
	}
	wp.StopWait()
	total := 0
	for _, o := range results {
		total += o.sum + o.vals[3]
	}
	fmt.Println(total, counter)
}
