package desk

import "wolftable/boards"

var boardsGet = boards.Get
