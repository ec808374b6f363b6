package scenario_test

import (
	"wolftable/boards"
	"wolftable/engine"
)

// getBoard finds a built-in board or a test board of scenarios/testboards.
var getBoard = func() func(string) (*engine.Board, error) {
	get, err := boards.WithDir("../scenarios/testboards")
	if err != nil {
		panic(err)
	}
	return get
}()
