"""The report's only script (inline, no network): the task table's filters, search and sorting, opening
a task from the table or a link, and the screenshot viewer (enlarged, previous/next, action caption).
Untrusted text is never turned into markup here: captions are set with ``textContent``."""

SCRIPT = r"""
(function(){
  var box=document.getElementById('lightbox');
  var shots=[], at=-1;
  function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;
    if(text!==undefined)e.textContent=text;return e;}
  function close(){box.classList.remove('open');box.innerHTML='';shots=[];at=-1;}
  function show(i){
    if(i<0||i>=shots.length)return;
    at=i;var fig=shots[i];box.innerHTML='';
    var copy=fig.cloneNode(true);copy.removeAttribute('id');copy.classList.add('big');
    var img=fig.querySelector('img');
    if(img&&img.naturalWidth){copy.style.setProperty('--ar',img.naturalWidth/img.naturalHeight);}
    var bar=el('div','lbbar');
    var prev=el('button','lbprev','◀ previous');prev.type='button';prev.disabled=(i===0);
    var next=el('button','lbnext','next ▶');next.type='button';next.disabled=(i===shots.length-1);
    var count=el('span','lbcount',(i+1)+' / '+shots.length);
    var cap=el('div','lbcap',fig.getAttribute('data-caption')||'');
    var shut=el('button','lbclose','close ✕');shut.type='button';
    prev.addEventListener('click',function(ev){ev.stopPropagation();show(at-1);});
    next.addEventListener('click',function(ev){ev.stopPropagation();show(at+1);});
    shut.addEventListener('click',function(ev){ev.stopPropagation();close();});
    bar.appendChild(prev);bar.appendChild(count);bar.appendChild(next);bar.appendChild(shut);
    var wrap=el('div','lbwrap');wrap.appendChild(copy);wrap.appendChild(cap);wrap.appendChild(bar);
    box.appendChild(wrap);box.classList.add('open');
  }
  function openTask(id){
    var t=document.getElementById(id);if(!t)return;
    var d=t.closest('details.task');if(d){d.open=true;}
    t.scrollIntoView({block:'start'});
  }
  document.addEventListener('click',function(ev){
    if(box.classList.contains('open')){
      if(!ev.target.closest('.lbbar'))close();
      return;
    }
    var fig=ev.target.closest?ev.target.closest('figure.shot'):null;
    if(fig){
      var scope=fig.closest('details.task')||document;
      shots=Array.prototype.slice.call(scope.querySelectorAll('figure.shot'));
      show(shots.indexOf(fig));return;
    }
    var btn=ev.target.closest?ev.target.closest('button.cause'):null;
    if(btn){var s=document.getElementById('f-cause');s.value=btn.getAttribute('data-cause');apply();
      document.getElementById('task-table').scrollIntoView();}
  });
  document.addEventListener('keydown',function(ev){
    if(!box.classList.contains('open'))return;
    if(ev.key==='Escape')close();
    else if(ev.key==='ArrowLeft')show(at-1);
    else if(ev.key==='ArrowRight')show(at+1);
  });
  var table=document.getElementById('task-table');
  function apply(){
    if(!table)return;
    var want={};
    document.querySelectorAll('#filters select').forEach(function(s){
      want[s.getAttribute('data-filter')]=s.value;});
    var q=(document.getElementById('f-q').value||'').toLowerCase().trim();
    var rows=table.tBodies[0].rows,shown=0;
    for(var i=0;i<rows.length;i++){
      var r=rows[i],ok=true;
      for(var k in want){if(want[k]&&r.getAttribute('data-'+k)!==want[k]){ok=false;break;}}
      if(ok&&q&&r.getAttribute('data-search').indexOf(q)<0)ok=false;
      r.hidden=!ok;if(ok)shown++;
    }
    document.getElementById('f-count').textContent=shown+' of '+rows.length+' tasks';
  }
  function sortBy(th){
    var idx=Array.prototype.indexOf.call(th.parentNode.children,th);
    var num=th.getAttribute('data-type')==='num';
    var dir=th.getAttribute('aria-sort')==='ascending'?-1:1;
    th.parentNode.querySelectorAll('th').forEach(function(h){h.removeAttribute('aria-sort');});
    th.setAttribute('aria-sort',dir===1?'ascending':'descending');
    var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
    rows.sort(function(a,b){
      var x=a.cells[idx].getAttribute('data-v'),y=b.cells[idx].getAttribute('data-v');
      if(num){x=parseFloat(x);y=parseFloat(y);x=isNaN(x)?-1e18:x;y=isNaN(y)?-1e18:y;
        return (x-y)*dir;}
      return x.localeCompare(y,undefined,{numeric:true})*dir;
    });
    rows.forEach(function(r){body.appendChild(r);});
  }
  if(table){
    document.querySelectorAll('#filters select').forEach(function(s){s.addEventListener('change',apply);});
    document.getElementById('f-q').addEventListener('input',apply);
    table.querySelectorAll('th[data-sort]').forEach(function(th){
      th.addEventListener('click',function(){sortBy(th);});
      th.addEventListener('keydown',function(ev){if(ev.key==='Enter')sortBy(th);});
    });
    apply();
  }
  function fromHash(){if(location.hash)openTask(decodeURIComponent(location.hash.slice(1)));}
  window.addEventListener('hashchange',fromHash);
  fromHash();
})();
"""
