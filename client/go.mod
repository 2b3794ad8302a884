module github.com/lapsehq/lapse/client

go 1.24
