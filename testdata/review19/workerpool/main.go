// A worker pool with a jobs and a results channel, a closer goroutine
// that waits for the workers, and per-job result structs built by the
// workers and read by main. Correct: go run -race is silent.
package main

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
)

type job struct {
	id   int
	data []int
}

type result struct {
	id  int
	sum int
	by  int
}

func worker(id int, jobs <-chan *job, results chan<- *result, wg *sync.WaitGroup, processed *atomic.Int64) {
	defer wg.Done()
	for j := range jobs {
		r := &result{id: j.id, by: id}
		for _, v := range j.data {
			r.sum += v
		}
		j.data[0] = -1 // the worker owns the job now
		processed.Add(1)
		results <- r
	}
}

func main() {
	jobs := make(chan *job)
	results := make(chan *result, 4)
	var wg sync.WaitGroup
	var processed atomic.Int64
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go worker(w, jobs, results, &wg, &processed)
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	all := make([]*job, 0, 50)
	go func() {
		for i := 0; i < 50; i++ {
			j := &job{id: i, data: make([]int, 10)}
			for k := range j.data {
				j.data[k] = i + k
			}
			all = append(all, j)
			jobs <- j
		}
		close(jobs)
	}()
	var out []*result
	for r := range results {
		out = append(out, r)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].id < out[b].id })
	total := 0
	for _, r := range out {
		total += r.sum
	}
	fmt.Println(len(out), total, processed.Load(), len(all), all[3].data[0])
}
