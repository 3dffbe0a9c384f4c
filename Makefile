# goanomaly's everyday commands. `make help` lists them.

GO          ?= go
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: help build test scripts bench bench-rt lint racesuite realmods realmods-bench fuzz slicediff

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 12

build: ## build the command into bin/goanomaly
	$(GO) build -o bin/goanomaly ./cmd/goanomaly

test: ## run every test, the end-to-end scripts included (what CI runs)
	$(GO) test ./...

scripts: ## run only the end-to-end testscripts (testscripts/*.txtar)
	$(GO) test ./testscripts

bench: ## the kernels plain, checked and with -race: times, memory, ratios (about 15 minutes)
	$(GO) run ./bench/cmd/benchrun

bench-rt: ## the runtime's micro-benchmarks (checks, block lookup, constructs)
	$(GO) test -bench=. -run='^$$' ./rt/...

lint: ## gofmt, go vet and staticcheck
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt -l:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

racesuite: ## run the race detector's own tests under goanomaly
	$(GO) run ./racesuite

realmods: ## races planted in imaging, lo, conc, bild, gonum callbacks (module proxy needed; REPORT=file.md)
	$(GO) run ./realmods $(if $(REPORT),-o $(REPORT))

realmods-bench: ## the real modules' own benchmarks plain, under goanomaly and -race (module proxy needed; REPORT=file.md)
	$(GO) run ./realmods -bench $(if $(REPORT),-o $(REPORT))

slicediff: ## the sliced build against the checked one on every kernel, racy variant, example and fuzz program (SLICEDIFF_FLAGS=-slice)
	$(GO) test -count=1 -v -run TestSliceDiff ./bench/slicediff

fuzz: ## the soundness fuzzer for 30 minutes (FUZZTIME=5m for less)
	$(GO) test -run '^$$' -fuzz FuzzSoundness -fuzztime $(or $(FUZZTIME),30m) ./instrument/soundfuzz
