// Writes the hand-built sample report (tests/parity/sample_report.h) as an HTML page, for
// report_page.test.js to open in Chromium: `twinrt_sample_report OUT.html`.
#include <fstream>
#include <iostream>

#include "parity/report.h"
#include "parity/sample_report.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: twinrt_sample_report OUT.html\n";
    return 2;
  }
  std::ofstream out(argv[1], std::ios::binary);
  out << twinrt::parity::render_html(twinrt::parity::testing::sample_report());
  out.close();
  if (!out) {
    std::cerr << "twinrt_sample_report: cannot write " << argv[1] << "\n";
    return 2;
  }
  return 0;
}
