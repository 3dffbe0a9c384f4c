package exits2

// A join by channel must receive one value per goroutine start.

func shortLoop(a []int) { // want shortLoop:"synchronizes: communicates by channel"
	const n = 4
	done := make(chan bool, n)
	for i := 0; i < n; i++ {
		go func() { // want `the join receives a number of values that cannot be matched to the goroutine starts \(receives counted by 3, starts by 4\); the last goroutines may outlive it — not checked`
			a[i] = i
			done <- true
		}()
	}
	for i := 0; i < n-1; i++ {
		<-done
	}
}

func loopOneRecv(a []int) { // want loopOneRecv:"synchronizes: communicates by channel"
	done := make(chan bool)
	for i := range a {
		go func() { // want `the join receives a number of values that cannot be matched to the goroutine starts; the last goroutines may outlive it — not checked`
			a[i] = i
			done <- true
		}()
	}
	<-done
}

func twoPerIteration(a, b []int) { // want twoPerIteration:"synchronizes: communicates by channel"
	done := make(chan bool)
	for i := range a {
		go func() { // want `the join receives a number of values that cannot be matched to the goroutine starts; the last goroutines may outlive it — not checked`
			a[i] = i
			done <- true
		}()
		go func() { // want `the join receives a number of values that cannot be matched to the goroutine starts; the last goroutines may outlive it — not checked`
			b[i] = i
			done <- true
		}()
	}
	for range a {
		<-done
	}
}

func boundChanged(a []int, n int) { // want boundChanged:"synchronizes: communicates by channel"
	done := make(chan bool)
	for i := range n {
		go func() { // want `the join receives a number of values that cannot be matched to the goroutine starts \(n may change between the starts and the receives\); the last goroutines may outlive it — not checked`
			a[i] = i
			done <- true
		}()
		n--
	}
	for range n {
		<-done
	}
}

func sectionsShort(a []int) { // want sectionsShort:"synchronizes: communicates by channel"
	done := make(chan bool)
	go func() { // want `the join receives a number of values that cannot be matched to the goroutine starts; the last goroutines may outlive it — not checked`
		a[0] = 1
		done <- true
	}()
	go func() { // want `the join channel is also sent on or passed to a function elsewhere in the function; the join may take values of other goroutines and the last goroutines may outlive it — not checked`
		a[1] = 1
		done <- true
	}()
	<-done
}

// Counts that match: these stay constructs.

func sameBound(a []int) {
	done := make(chan bool)
	for i := 0; i < len(a); i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		go func() {
			a[i] = i
			done <- true
		}()
	}
	for range a {
		<-done
	}
}

func rowsLen(a [][]int) {
	done := make(chan bool)
	for i := range a[0] { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		go func() {
			a[0][i] = i
			done <- true
		}()
	}
	for range len(a[0]) {
		<-done
	}
}

func sectionsLoop(a []int) {
	done := make(chan bool)
	go func() { // want `parallel sections of 2 goroutine start\(s\), joined at line \d+`
		a[0] = 1
		done <- true
	}()
	go func() {
		a[1] = 1
		done <- true
	}()
	for range 2 {
		<-done
	}
}

// Constant bounds count alike when their numbers of iterations are equal:
// 0, 3, …, 12 are five starts, and five receives join them.
func chunkConst(a []int) {
	done := make(chan bool)
	for c := 0; c < 13; c += 3 { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		go func() {
			a[c] = 1
			done <- true
		}()
	}
	for range 5 {
		<-done
	}
}

func chunkConstShort(a []int) { // want chunkConstShort:"synchronizes: communicates by channel"
	done := make(chan bool)
	for c := 0; c <= 12; c += 3 {
		go func() { // want `the join receives a number of values that cannot be matched to the goroutine starts \(receives counted by 4, starts by 5\); the last goroutines may outlive it — not checked`
			a[c] = 1
			done <- true
		}()
	}
	for i := 0; i < 4; i++ {
		<-done
	}
}
