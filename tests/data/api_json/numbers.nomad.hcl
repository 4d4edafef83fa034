# Numbers as cty holds them: 512-bit big.Float values with a signed zero, printed with
# Text('f', -1). Each meta value is a number turned into text.
locals {
  l = ["a", "b"]
}

job "numbers" {
  meta {
    negative_zero           = -0.0
    negative_zero_int       = -0
    negated_twice           = -(-0)
    zero_times_negative     = 0 * -1
    zero_times_huge         = 0 * (1e308 * 10)
    index_negative_zero     = local.l[-0]
    range_from_negative     = length(range(-0, 2))
    format_d                = format("%d", -0)
    format_v                = format("%v", -0)
    format_f                = format("%f", -0)
    jsonencode              = jsonencode([-0, -0.0, 1.5e300, 0.30000000000000000000001])
    yamlencode              = yamlencode(-0)
    max                     = max(-0, 0)
    abs                     = abs(-0)
    pi                      = 3.14159265358979323846264
    pi_plus_zero            = 3.14159265358979323846264 + 0
    long_int                = 12345678901234567890123
    huge                    = 1e400
    past_float64            = 1e300 * 1e10
    past_float64_modulo     = (1e308 * 10) % 2
    tenth_plus_fifth        = 0.1 + 0.2
    tenth_times_three       = 0.1 * 3
    eleven_tenths_minus_one = 1.1 - 1
    third                   = 1 / 3
    thirds                  = 1 / 3 + 1 / 3 + 1 / 3
    two_thirds_times_three  = 2 / 3 * 3
    hundred_times_1_1       = 100 * 1.1
    quarter                 = 10 / 4
    modulo_fraction         = 7 % 2.5
    sqrt2                   = pow(2, 0.5)
    sqrt2_times_one         = pow(2, 0.5) * 1
    small                   = 2.5e-8
    tiny                    = 2.0000000000000000000000000000000000001e-30
    many_digits             = 1.12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890
    decimal_digits          = 123456789.123456789
    string_to_number        = "0.1" + "0.2"
    negative_fraction       = -2.5 * 0.1
    floor                   = floor(-0.5)
  }

  group "g" {
    count = -0

    task "t" {
      driver = "docker"
    }
  }
}
