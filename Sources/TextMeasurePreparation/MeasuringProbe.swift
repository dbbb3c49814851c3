import CTextICU

/// How many calls into ICU and HarfBuzz the calling thread has made: a probe for
/// tests of the rule that laying out a prepared text measures nothing.
package enum MeasuringProbe {
    static var callsOnThisThread: UInt64 { ctx_measuring_calls() }
}
