# Package `team`, not `main`: found only with every package's rules (policyAllNamespaces).
package team

import rego.v1

deny contains "every job needs the team's sign-off" if true

# Minutes of work: stopped at the session's time limit (policyTimeout).
deny_slow contains n if {
	n := count([1 | some i in numbers.range(1, 100000); some j in numbers.range(1, 100000); i == -j])
}
