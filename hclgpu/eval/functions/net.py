"""CIDR functions from go-cty-funcs ``cidr`` (built on ``apparentlymart/go-cidr``).

Addresses are handled as integers of 32 or 128 bits, so IPv4 and IPv6 share one code
path, and the arithmetic (negative host numbers counting from the end, subnet
allocation in ``cidrsubnets``) follows go-cidr step by step. Prefixes are parsed as
Go's ``net.ParseCIDR`` does: strict dotted quads, no zones, a decimal prefix length.
"""

from __future__ import annotations

from dataclasses import dataclass

from hclgpu.eval.functions.base import ArgError, CallError, Function, Param, define, whole

__all__ = ["TABLE"]


@dataclass(frozen=True, slots=True)
class _Network:
    """An address with a prefix length: ``ip`` is not necessarily masked."""

    ip: int
    prefix: int
    bits: int

    def mask(self, prefix: int | None = None) -> int:
        """The netmask for ``prefix`` (default: this network's) as an integer."""
        length = self.prefix if prefix is None else prefix
        return ((1 << length) - 1) << (self.bits - length)

    def last(self) -> int:
        """The highest address in the network."""
        return (self.ip & self.mask()) | ((1 << (self.bits - self.prefix)) - 1)

    def contains(self, address: int) -> bool:
        """Whether ``address`` is inside the network."""
        return address & self.mask() == self.ip & self.mask()

    def __str__(self) -> str:
        """Go's ``IPNet.String``: the (unmasked) IP, a slash, the prefix length."""
        return f"{ip_text(self.ip, self.bits)}/{self.prefix}"


def ip_text(address: int, bits: int) -> str:
    """Go's ``net.IP.String``: dotted quad, or RFC 5952 IPv6 (IPv4-mapped as a quad)."""
    import ipaddress

    if bits == 32:
        return str(ipaddress.IPv4Address(address))
    v6 = ipaddress.IPv6Address(address)
    return str(v6.ipv4_mapped) if v6.ipv4_mapped is not None else str(v6)


def _parse_cidr(text: str) -> _Network:
    """Go's ``net.ParseCIDR``; the returned network's address is masked."""
    import ipaddress

    error = f"invalid CIDR expression: invalid CIDR address: {text}"
    address, slash, length = text.partition("/")
    if not slash or "%" in address or not length.isascii() or not length.isdigit():
        raise ValueError(error)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        raise ValueError(error) from None
    prefix = int(length)
    if prefix > ip.max_prefixlen:
        raise ValueError(error)
    network = _Network(int(ip), prefix, ip.max_prefixlen)
    return _Network(network.ip & network.mask(), prefix, network.bits)


def _network_arg(text: str, arg_error: bool = False) -> _Network:
    """Parse the prefix argument, failing the call (or argument 0) as go-cty-funcs does."""
    try:
        return _parse_cidr(text)
    except ValueError as exc:
        if arg_error:
            raise ArgError(0, str(exc)) from None
        raise CallError(str(exc), arg=0) from None


def _cidrhost(prefix: str, hostnum: int | float) -> str:
    """The address of host number ``hostnum`` (negative counts back from the last)."""
    number = whole(hostnum)
    network = _network_arg(prefix)
    host_bits = network.bits - network.prefix
    max_host = (1 << host_bits) - 1
    magnitude = -number - 1 if number < 0 else number
    if magnitude > max_host:
        raise CallError(f"prefix of {network.prefix} does not accommodate a host numbered {number}", arg=1)
    offset = max_host - magnitude if number < 0 else number
    return ip_text(network.ip | offset, network.bits)


def _cidrnetmask(prefix: str) -> str:
    """The netmask of a prefix, in address notation."""
    network = _network_arg(prefix)
    return ip_text(network.mask(), network.bits)


def _cidrsubnet(prefix: str, newbits: int | float, netnum: int | float) -> str:
    """Subnet number ``netnum`` of the prefix extended by ``newbits`` bits."""
    extra, number = whole(newbits), whole(netnum)
    network = _network_arg(prefix)
    if extra > 32:
        raise CallError("may not extend prefix by more than 32 bits", arg=1)
    length = network.prefix + extra
    if length > network.bits:
        raise CallError(f"insufficient address space to extend prefix of {network.prefix} by {extra}", arg=1)
    if extra < 0 or number < 0 or number > (1 << extra) - 1:
        raise CallError(f"prefix extension of {extra} does not accommodate a subnet numbered {number}", arg=2)
    return str(_Network(network.ip | (number << (network.bits - length)), length, network.bits))


def _previous_subnet(network: _Network, prefix: int) -> _Network:
    """go-cidr's ``PreviousSubnet``: the ``prefix``-sized block just before ``network``."""
    before = (network.ip - 1) % (1 << network.bits)
    candidate = _Network(before, prefix, network.bits)
    return _Network(before & candidate.mask(), prefix, network.bits)


def _next_subnet(current: _Network, prefix: int) -> tuple[_Network, bool]:
    """go-cidr's ``NextSubnet``: the ``prefix``-sized block after ``current``; True on wrap."""
    sized = _Network(current.last(), prefix, current.bits)
    following = (_Network(sized.ip & sized.mask(), prefix, current.bits).last() + 1) % (1 << current.bits)
    nxt = _Network(following, prefix, current.bits)
    return _Network(following & nxt.mask(), prefix, current.bits), following == 0


def _cidrsubnets(prefix: str, *newbits: int | float) -> list[str]:
    """Consecutive subnets of the given extra prefix lengths, packed from the start."""
    network = _network_arg(prefix, arg_error=True)
    if not newbits:
        return []
    first = whole(newbits[0], 1)
    current = _previous_subnet(network, min(max(first + network.prefix, 0), network.bits))
    family = {32: "IPv4", 128: "IPv6"}[network.bits]
    result: list[str] = []
    for position, bits in enumerate(newbits, start=1):
        extra = whole(bits, position)
        if extra < 1:
            raise ArgError(position, "must extend prefix by at least one bit")
        if extra > 32:
            raise ArgError(position, "may not extend prefix by more than 32 bits")
        length = network.prefix + extra
        if length > network.bits:
            raise ArgError(
                position, f"would extend prefix to {length} bits, which is too long for an {family} address"
            )
        nxt, rollover = _next_subnet(current, length)
        if rollover or not network.contains(nxt.ip):
            raise ArgError(
                position,
                "not enough remaining address space for a subnet with a prefix of "
                f"{length} bits after {current}",
            )
        current = nxt
        result.append(str(current))
    return result


_PREFIX = Param("prefix", "string")

TABLE: tuple[Function, ...] = (
    define("cidrhost", _cidrhost, _PREFIX, Param("hostnum", "number")),
    define("cidrnetmask", _cidrnetmask, _PREFIX),
    define("cidrsubnet", _cidrsubnet, _PREFIX, Param("newbits", "number"), Param("netnum", "number")),
    define("cidrsubnets", _cidrsubnets, _PREFIX, var=Param("newbits", "number")),
)
