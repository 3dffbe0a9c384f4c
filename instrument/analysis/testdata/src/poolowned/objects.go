package poolowned

import "sync"

// objects: what each worker allocates before its items is its own.
func objects() []int { // want objects:`synchronizes: communicates by channel`
	jobs := make(chan int, 50)
	for i := range 50 {
		jobs <- i
	}
	close(jobs)
	res := make([]int, 4)
	var wg sync.WaitGroup
	for k := range 4 { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			acc := new(int)
			buf := make([]int, 0, 8)
			var local []int
			hist := new([4]int)
			for it := range jobs { // want `jobs: read\-only: nothing writes jobs while the construct runs`
				*acc += it // want `\*acc: private: only its worker reaches what the worker allocated`
				buf = append(buf, it)
				local = append(local, it)
				hist[it%4]++ // want `hist\[it % 4\]: private: only its worker reaches what the worker allocated`
			}
			for _, v := range buf {
				*acc += v // want `\*acc: private: only its worker reaches what the worker allocated`
			}
			res[k] = *acc + len(local) + hist[0] // want `res\[k\]: checked: not ` `res: read\-only: nothing writes res while the construct runs` `k: private: no other goroutine writes k` `\*acc: private: only its worker reaches what the worker allocated` `hist\[0\]: private: only its worker reaches what the worker allocated`
		})
	}
	wg.Wait()
	return res
}

// escaped: objects whose pointer leaves the worker stay per item.
func escaped() int { // want escaped:`synchronizes: communicates by channel`
	jobs := make(chan int, 50)
	for i := range 50 {
		jobs <- i
	}
	close(jobs)
	var mu sync.Mutex
	var all []*int
	total := 0
	var wg sync.WaitGroup
	for range 4 { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			acc := new(int)
			mu.Lock()
			all = append(all, acc) // want `all: checked: shared variable` `all: checked: shared variable`
			mu.Unlock()
			cell := make([]int, 1)
			p := &cell[0]
			for it := range jobs { // want `jobs: read\-only: nothing writes jobs while the construct runs`
				*acc += it // want `\*acc: checked: not `
				*p += it   // want `\*p: checked: not `
				cell[0]++  // want `cell\[0\]: checked: not `
			}
			mu.Lock()
			total += *acc // want `total: checked: shared variable` `\*acc: checked: not `
			mu.Unlock()
		})
	}
	wg.Wait()
	return total
}

func fill(b []int, v int) {
	for i := range len(b) {
		b[i] = v + i
	}
}

func total(b []int) (s int) {
	for i := range len(b) {
		s += b[i]
	}
	return s
}

var kept []int

func keep(b []int) { kept = b }

// lent: a scratch buffer lent to helpers that only index it stays the
// worker's: its accesses, and the helpers' calls, are private. Kept by
// keep, another buffer escapes and stays the item's.
func lent() []int { // want lent:`synchronizes: communicates by channel`
	jobs := make(chan int, 50)
	for i := range 50 {
		jobs <- i
	}
	close(jobs)
	res := make([]int, 50)
	var wg sync.WaitGroup
	for range 4 { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			buf := make([]int, 8)
			other := make([]int, 8)
			for it := range jobs { // want `jobs: read-only: `
				fill(buf, it)                 // want `fill\(buf, it\): private: the callee only indexes what the worker allocated`
				res[it] = total(buf) + buf[0] // want `res\[it\]: checked: not ` `res: read-only: ` `total\(buf\): private: the callee only indexes what the worker allocated` `buf\[0\]: private: only its worker reaches what the worker allocated`
				keep(other)
				other[0] = it // want `other\[0\]: checked: not `
			}
		})
	}
	wg.Wait()
	return res
}

// windows: a slice of the worker's object is the same object under another
// name: private while the object is, and handed over with it, so the
// write through the slice after the hand-over is checked.
func windows() [][]int { // want windows:`synchronizes: communicates by channel`
	jobs := make(chan int, 50)
	for i := range 50 {
		jobs <- i
	}
	close(jobs)
	res := make([][]int, 4)
	var wg sync.WaitGroup
	for k := range 4 { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			row := make([]int, 4)
			head := row[:2]
			for it := range jobs { // want `jobs: read\-only: nothing writes jobs while the construct runs`
				win := row[it%2 : it%2+2]
				win[1] += it // want `win\[1\]: private: only its worker reaches what the worker allocated`
				head[0]++    // want `head\[0\]: private: only its worker reaches what the worker allocated`
			}
			res[k] = row // want `res\[k\]: checked: not ` `res: read\-only: nothing writes res while the construct runs` `k: private: no other goroutine writes k`
			head[1] = 1  // want `head\[1\]: checked: not `
		})
	}
	wg.Wait()
	return res
}
