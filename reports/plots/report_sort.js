// Sortable tables, on report.html and compare.html: a click on a header (or Enter on it) sorts
// by that column, again reverses; blanks stay last and a total row (in <tfoot>) at the bottom.
(function () {
  "use strict";
  function sortTable(table, column, header) {
    const ascending = header.getAttribute("aria-sort") !== "ascending";
    for (const th of table.tHead.rows[0].cells) th.removeAttribute("aria-sort");
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    const key = (row) => {
      const td = row.cells[column];
      if (td.dataset.sort === undefined) return td.textContent;
      return td.dataset.sort === "" ? null : Number(td.dataset.sort);
    };
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    rows.sort((a, b) => {
      const x = key(a), y = key(b);
      if (x === null || y === null) return (x === null) - (y === null);
      const order =
        typeof x === "number" ? x - y : x.localeCompare(y, undefined, { numeric: true });
      return ascending ? order : -order;
    });
    for (const row of rows) body.appendChild(row);
  }

  for (const table of document.querySelectorAll("table.sortable")) {
    Array.from(table.tHead.rows[0].cells).forEach((th, column) => {
      th.tabIndex = 0;
      th.title = "sort by this column";
      th.addEventListener("click", () => sortTable(table, column, th));
      th.addEventListener("keydown", (e) => {
        if (e.key === "Enter") sortTable(table, column, th);
      });
    });
  }

})();
