module github.com/goanomaly/goanomaly

go 1.26.0

require (
	github.com/dave/dst v0.28.0
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/mod v0.42.0
	golang.org/x/sync v0.25.0
	golang.org/x/tools v0.52.0
)

require golang.org/x/sys v0.49.0 // indirect
