package cegpv

// RaceSearch are the table's budgets of the explicit-state search beside
// the mode (race), for the tests.
var RaceSearch = searchOptions(race)
