module github.com/goanomaly/goanomaly

go 1.25.0

require (
	github.com/dave/dst v0.28.0 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
