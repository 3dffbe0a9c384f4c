// Package formsrecv has constructs joined by repeated receives: one
// receive statement per section, and receive loops whose count is
// spelled differently from the fork loop's but provably equal. The
// variants whose counts cannot be shown equal are noted with both counts.
package formsrecv

func sections(a []int) {
	done := make(chan bool)
	go func() { // want `parallel sections of 2 goroutine start\(s\), joined at line \d+`
		a[0] = 1
		done <- true
	}()
	go func() {
		a[1] = 1
		done <- true
	}()
	<-done
	<-done
}

func rangeThenLen(xs []int) {
	done := make(chan bool)
	for i := range xs { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		go func() {
			xs[i] = i
			done <- true
		}()
	}
	for range len(xs) {
		<-done
	}
}

func countedByVar(xs []int) {
	done := make(chan bool)
	n := len(xs)
	for i := range xs { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		go func() {
			xs[i] = i
			done <- true
		}()
	}
	for i := 0; i < n; i++ {
		<-done
	}
}

func parts(parts [][]int) {
	done := make(chan bool)
	for _, p := range parts { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		go func() {
			p[0] = 1
			done <- true
		}()
	}
	for range parts {
		<-done
	}
}

func mapKeys(out []int) {
	m := map[int]int{0: 1, 2: 3}
	m[1] = 2
	done := make(chan bool)
	for k := range m { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		go func() {
			out[k] = m[k]
			done <- true
		}()
	}
	for range len(m) {
		<-done
	}
}

func runes(s string, out []rune) {
	done := make(chan bool)
	for i, r := range s { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		go func() {
			out[i] = r
			done <- true
		}()
	}
	for range s {
		<-done
	}
}

// Counts that cannot be shown equal: noted, with both counts.

func otherSlice(xs, ys []int) { // want otherSlice:"synchronizes: communicates by channel"
	done := make(chan bool)
	for i := range xs {
		go func() { // want `the join receives a number of values that cannot be matched to the goroutine starts \(receives counted by len\(ys\), starts by len\(xs\)\); the last goroutines may outlive it — not checked`
			xs[i] = i
			done <- true
		}()
	}
	for range ys {
		<-done
	}
}

func bytesNotRunes(s string, out []rune) { // want bytesNotRunes:"synchronizes: communicates by channel"
	done := make(chan bool)
	for i, r := range s {
		go func() { // want `\(receives counted by len\(s\), starts by runes\(s\)\)`
			out[i] = r
			done <- true
		}()
	}
	for range len(s) {
		<-done
	}
}

func mapShrinks(m map[int]int, out []int) { // want mapShrinks:"synchronizes: communicates by channel"
	done := make(chan bool)
	for k := range m {
		go func() { // want `\(map m may change size while the loops run\)`
			out[k] = 1
			done <- true
		}()
		delete(m, k+1)
	}
	for range m {
		<-done
	}
}

func varChanged(xs []int) { // want varChanged:"synchronizes: communicates by channel"
	done := make(chan bool)
	n := len(xs)
	if n > 2 {
		n--
	}
	for i := range xs {
		go func() { // want `\(receives counted by n, starts by len\(xs\)\)`
			xs[i] = i
			done <- true
		}()
	}
	for range n {
		<-done
	}
}

func lenChanged(xs []int) { // want lenChanged:"synchronizes: communicates by channel"
	done := make(chan bool)
	n := len(xs)
	xs = append(xs, 0)
	for i := range xs {
		go func() { // want `\(len\(xs\) may change after it is counted\)`
			xs[i] = i
			done <- true
		}()
	}
	for range n {
		<-done
	}
}

func mapParam(m map[int]int, out []int) { // want mapParam:"synchronizes: communicates by channel"
	done := make(chan bool)
	for k := range m {
		go func() { // want `\(map m may change size while the loops run\)`
			out[k] = 1
			done <- true
		}()
	}
	for range m {
		<-done
	}
}

func mapCopied(out []int) { // want mapCopied:"synchronizes: communicates by channel"
	m := map[int]int{0: 1}
	alias := m
	done := make(chan bool)
	for k := range m {
		go func() { // want `\(map m may change size while the loops run\)`
			out[k] = 1
			done <- true
		}()
		delete(alias, k)
	}
	for range m {
		<-done
	}
}

func closureGrows(xs []int) { // want closureGrows:"synchronizes: communicates by channel"
	grow := func() { xs = append(xs, 0) }
	done := make(chan bool)
	for i := range xs {
		go func() { // want `\(len\(xs\) may change between the starts and the receives\)`
			xs[i] = i
			done <- true
		}()
		grow()
	}
	for range len(xs) {
		<-done
	}
}
